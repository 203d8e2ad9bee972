import { type ChildProcess, spawn } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrl, getDb } from "../../server/db/client";
import { startSmtpServer, type TestSmtpServer } from "../../test/smtp-server";
import { queueRenterMessage } from "./queue";
import { renterMessages } from "./renter-messages.table";

let smtp: TestSmtpServer;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await smtp.close();
});

/** `npm run worker` as production runs it, on this file's database and SMTP server. */
async function startWorkerProcess(): Promise<ChildProcess> {
  const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    stdio: "ignore",
    env: {
      ...process.env,
      DATABASE_URL: await databaseUrl(),
      SMTP_URL: smtp.url,
      MAIL_FROM: "Renters <no-reply@pis.test>",
      SMTP_TIMEOUT_SECONDS: "30",
      WORKER_STALE_LOCK_SECONDS: "2",
      WORKER_UNLOCK_INTERVAL_SECONDS: "1",
      LOG_LEVEL: "silent",
    },
  });
  workers.push(worker);
  return worker;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a worker killed while sending (docs/decisions.md, Renter messages: the outbox)", () => {
  it("leaves the message `sending` under its lease; once the lease ends another worker sends it, and the renter gets it once", async () => {
    const to = "crash.renter@example.com";
    smtp.queue({ hang: true });
    const db = await getDb();
    const id = (await db.transaction((tx) =>
      queueRenterMessage(tx, { kind: "account_sign_in", to, link: "http://localhost:3999/account/sign-in/crash", expiresAt: new Date().toISOString() }),
    )) as number;
    const row = async () => (await db.select().from(renterMessages).where(eq(renterMessages.id, id)))[0];

    const first = await startWorkerProcess();
    await until(() => smtp.dataStarted() >= 1, 60_000);
    expect(await row()).toMatchObject({ status: "sending", attempts: 1 });
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const stranded = await row();
    expect(stranded.status).toBe("sending");
    expect(stranded.leaseUntil?.getTime()).toBeGreaterThan(Date.now());

    // The lease is what keeps a second sender out while the first may still be talking: time passes.
    await db.update(renterMessages).set({ leaseUntil: sql`now() - interval '1 second'` }).where(eq(renterMessages.id, id));
    const second = await startWorkerProcess();
    await until(async () => (await row()).status === "sent", 90_000);
    second.kill("SIGTERM");
    expect(await row()).toMatchObject({ status: "sent", attempts: 2, lastAnswerCode: 250 });
    const mails = smtp.received.filter((mail) => mail.envelopeTo.includes(to));
    expect(mails).toHaveLength(1);
    expect(mails[0].parsed.messageId).toBe(stranded.messageId);
  }, 180_000);
});
