import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

/** How the server answers a message's data: accept, refuse (an SMTP code and text), or never answer. */
export type SmtpBehaviour = { accept: true } | { refuse: number; text: string } | { hang: true };

export type ReceivedMail = { envelopeTo: string[]; parsed: ParsedMail; raw: string };

/**
 * A real SMTP server on a free loopback port (style: "an external service in tests is a real local
 * server speaking its protocol"): it parses what it accepts with mailparser and can be told to
 * refuse or to hang. The code under test only ever sees an `smtp://` URL.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const behaviours: SmtpBehaviour[] = [];
  let fallback: SmtpBehaviour = { accept: true };
  let dataStarted = 0;
  const hanging = new Set<() => void>();
  const waiters: (() => void)[] = [];

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    banner: "test SMTP server",
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null, message?: string) => void) {
      dataStarted++;
      for (const wake of waiters.splice(0)) wake();
      const behaviour = behaviours.shift() ?? fallback;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if ("hang" in behaviour) {
          hanging.add(() => callback(Object.assign(new Error("closing"), { responseCode: 421 })));
          return;
        }
        if ("refuse" in behaviour) return callback(Object.assign(new Error(behaviour.text), { responseCode: behaviour.refuse }));
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), parsed: await simpleParser(raw), raw });
        for (const wake of waiters.splice(0)) wake();
        callback(null, "Ok: queued as test");
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    /** Answers for the next messages, in order; then `setDefault`'s. */
    queue: (...next: SmtpBehaviour[]) => behaviours.push(...next),
    setDefault: (behaviour: SmtpBehaviour) => {
      fallback = behaviour;
    },
    /** How many messages' data began to arrive (accepted or not). */
    dataStarted: () => dataStarted,
    /** Resolves once `predicate` holds, re-checked as messages arrive. */
    async until(predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error("timed out waiting for the SMTP server");
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    async close(): Promise<void> {
      for (const release of hanging) release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
