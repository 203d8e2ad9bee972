import type SMTPTransport from "nodemailer/lib/smtp-transport";

/** What the SMTP server made of one message: accepted, refused for now (retry), refused for good. */
export type SmtpOutcome =
  | { kind: "accepted"; answer: string; code: number }
  | { kind: "transient"; answer: string; code: number | null }
  | { kind: "permanent"; answer: string; code: number };

export type OutgoingMessage = { from: string; to: string; subject: string; html: string; text: string; messageId: string };

/**
 * Sends one message over SMTP with nodemailer (decisions §19 Outbox), one connection per message (no
 * pool: a worker sends a message at a time per job and a pool would outlive a job). Timeouts at each
 * step and for the whole conversation, so a server that hangs costs a retry, not a stuck worker.
 * The URL may carry credentials: it is never logged or put into an answer.
 */
export async function sendOverSmtp(smtpUrl: string, message: OutgoingMessage, timeoutSeconds: number): Promise<SmtpOutcome> {
  const timeoutMs = timeoutSeconds * 1000;
  // Loaded with the first message, not with every process that imports the router (docs/decisions.md
  // "Loading on first use").
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  } as SMTPTransport.Options);
  let timer: NodeJS.Timeout | undefined;
  const overall = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`No answer from the SMTP server within ${overallSeconds(timeoutSeconds)} s`), { code: "ETIMEDOUT" })),
      overallSeconds(timeoutSeconds) * 1000,
    );
  });
  try {
    const info = (await Promise.race([
      transport.sendMail({ ...message, headers: { "Auto-Submitted": "auto-generated" } }),
      overall,
    ])) as SMTPTransport.SentMessageInfo;
    return { kind: "accepted", answer: info.response, code: Number(info.response.match(/^\d{3}/)?.[0] ?? 250) };
  } catch (error) {
    return outcomeOfError(error);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

/** The whole conversation's limit: connection, greeting and a few commands each within the step timeout. */
export const overallSeconds = (timeoutSeconds: number) => timeoutSeconds * 3;

/**
 * A 5xx answer is the server's final word (RFC 5321 §4.2.1: permanent negative completion); a 4xx,
 * a timeout or a connection that failed may go through later.
 */
export function outcomeOfError(error: unknown): SmtpOutcome {
  const e = error as { responseCode?: number; response?: string; message?: string; code?: string };
  const answer = (e.response ?? [e.code, e.message].filter(Boolean).join(": ")) || "unknown error";
  if (typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600)
    return { kind: "permanent", answer: clip(answer), code: e.responseCode };
  return { kind: "transient", answer: clip(answer), code: typeof e.responseCode === "number" ? e.responseCode : null };
}

const clip = (text: string) => (text.length > 500 ? `${text.slice(0, 500)}…` : text);
