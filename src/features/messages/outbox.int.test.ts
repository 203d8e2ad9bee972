import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { queuedJobs, runDueJobs } from "../../test/jobs";
import { startSmtpServer, type TestSmtpServer } from "../../test/smtp-server";
import { queueRenterMessage } from "./queue";
import { renterMessages } from "./renter-messages.table";
import { sendRenterMessage } from "./send";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.SMTP_TIMEOUT_SECONDS;
  resetConfig();
  await smtp.close();
});
beforeEach(() => {
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Renters <no-reply@pis.test>";
  delete process.env.SMTP_TIMEOUT_SECONDS;
  resetConfig();
  smtp.setDefault({ accept: true });
});

async function queueSignIn(to: string): Promise<number> {
  const db = await getDb();
  const id = await db.transaction((tx) =>
    queueRenterMessage(tx, {
      kind: "account_sign_in",
      to,
      link: "http://localhost:3999/account/sign-in/abc",
      expiresAt: new Date(Date.now() + 900_000).toISOString(),
    }),
  );
  if (!id) throw new Error("not queued");
  return id;
}

async function messageRow(id: number) {
  const [row] = await (await getDb()).select().from(renterMessages).where(eq(renterMessages.id, id));
  return row;
}

const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address));

describe("the renter message outbox (decisions §19 Outbox)", () => {
  it("sends a queued message once, as HTML and text from one template, and never again on a retry of ours", async () => {
    const id = await queueSignIn("renter.one@example.com");
    expect((await messageRow(id)).status).toBe("queued");
    await runDueJobs();
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastAnswerCode: 250 });
    expect(row.lastAnswer).toContain("Ok: queued as test");
    const [mail] = mailsTo("renter.one@example.com");
    expect(mail.parsed.subject).toBe("Your sign-in link");
    expect(mail.parsed.from?.text).toContain("no-reply@pis.test");
    expect(mail.parsed.messageId).toBe(row.messageId);
    expect(mail.parsed.html).toContain('href="http://localhost:3999/account/sign-in/abc"');
    expect(mail.parsed.text).toContain("http://localhost:3999/account/sign-in/abc");
    expect(mail.parsed.html).not.toMatch(/<img/i);
    // The job ran again (a retry of ours): the accepted message is not sent twice.
    expect(await sendRenterMessage(await getDb(), id)).toBe("done");
    expect(mailsTo("renter.one@example.com")).toHaveLength(1);
  });

  it("keeps a message without SMTP_URL, rendered for the console", async () => {
    delete process.env.SMTP_URL;
    resetConfig();
    const before = smtp.received.length;
    const id = await queueSignIn("kept@example.com");
    await runDueJobs();
    const row = await messageRow(id);
    expect(row.status).toBe("kept");
    expect(row.html).toContain("Sign in to your renter account");
    expect(row.text).toContain("http://localhost:3999/account/sign-in/abc");
    expect(smtp.received.length).toBe(before);
  });

  it("retries a 4xx refusal with backoff, then records a 5xx as failed with the server's answer", async () => {
    smtp.queue({ refuse: 451, text: "4.3.0 Try again later" }, { refuse: 550, text: "5.1.1 No such mailbox" });
    const id = await queueSignIn("refused@example.com");
    await runDueJobs();
    let row = await messageRow(id);
    expect(row).toMatchObject({ status: "queued", attempts: 1, lastAnswerCode: 451 });
    expect(row.lastAnswer).toContain("Try again later");
    const delay = (row.nextAttemptAt?.getTime() ?? 0) - Date.now();
    expect(delay).toBeGreaterThan(30_000);
    expect(delay).toBeLessThanOrEqual(60_000);
    const [job] = (await queuedJobs("renter_message__send")).filter((j) => j.key === `renter_message:${id}`);
    expect(job.due_in_seconds).toBeGreaterThan(30);
    await (await getDb()).update(renterMessages).set({ nextAttemptAt: new Date() }).where(eq(renterMessages.id, id));
    expect(await sendRenterMessage(await getDb(), id)).toBe("failed");
    row = await messageRow(id);
    expect(row).toMatchObject({ status: "failed", attempts: 2, lastAnswerCode: 550 });
    expect(row.lastAnswer).toContain("No such mailbox");
    expect(mailsTo("refused@example.com")).toHaveLength(0);
  });

  it("gives up on transient refusals once its 24 hours are over", async () => {
    smtp.queue({ refuse: 452, text: "4.2.2 Mailbox full" });
    const id = await queueSignIn("late@example.com");
    await (await getDb())
      .update(renterMessages)
      .set({ giveUpAt: new Date(Date.now() - 1000) })
      .where(eq(renterMessages.id, id));
    expect(await sendRenterMessage(await getDb(), id)).toBe("failed");
    expect(await messageRow(id)).toMatchObject({ status: "failed", lastAnswerCode: 452 });
  });

  it("treats a server that hangs as a transient failure, within the timeout", async () => {
    process.env.SMTP_TIMEOUT_SECONDS = "1";
    resetConfig();
    smtp.queue({ hang: true });
    const id = await queueSignIn("hang@example.com");
    const started = Date.now();
    expect(await sendRenterMessage(await getDb(), id)).toBe("retried");
    expect(Date.now() - started).toBeLessThan(10_000);
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "queued", attempts: 1, lastAnswerCode: null });
    expect(row.lastAnswer).toMatch(/time|ETIMEDOUT/i);
    expect(mailsTo("hang@example.com")).toHaveLength(0);
  });

  it("two workers on one message: one sends it, the other finds it held", async () => {
    const id = await queueSignIn("twice@example.com");
    const db = await getDb();
    const results = await Promise.all([sendRenterMessage(db, id), sendRenterMessage(db, id)]);
    expect(results.sort()).toEqual(["busy", "sent"].sort());
    expect(mailsTo("twice@example.com")).toHaveLength(1);
  });

  it("writes one message per dedupe key", async () => {
    const db = await getDb();
    const args = {
      kind: "account_sign_in",
      to: "dedupe@example.com",
      link: "http://localhost:3999/a",
      expiresAt: new Date().toISOString(),
      dedupeKey: "test:once",
    } as const;
    expect(await db.transaction((tx) => queueRenterMessage(tx, args))).toBeTypeOf("number");
    expect(await db.transaction((tx) => queueRenterMessage(tx, args))).toBeUndefined();
  });
});
