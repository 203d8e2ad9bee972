import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Db } from "../../server/db/client";
import { addJob } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { observeRenterMessage } from "../../server/observability/metrics";
import { MESSAGE_DATA } from "./kinds";
import { sendJobKey } from "./queue";
import { renterMessageSendTask } from "./renter_message__send";
import { type RenterMessage, renterMessages } from "./renter-messages.table";
import { overallSeconds, type SmtpOutcome, sendOverSmtp } from "./transport";

export type SendResult = "sent" | "kept" | "retried" | "failed" | "busy" | "done";

/**
 * One step of a message's life (docs/decisions.md, "Renter messages: the outbox"):
 * 1. a message already `sent`, `failed` or `kept` is left alone: our own retry never sends twice;
 * 2. its HTML and text are rendered once, from its data;
 * 3. without `SMTP_URL` it is `kept`;
 * 4. else the lease is taken (`sending`, attempts + 1) before the server is spoken to, and the
 *    server's answer settles it: `sent`, `failed` (5xx, or out of its 24 hours) or `queued` again
 *    with its next attempt scheduled. A message another worker holds is looked at again when that
 *    worker's lease ends (it may have died).
 */
export async function sendRenterMessage(db: Db, messageId: number): Promise<SendResult> {
  const [row] = await db.select().from(renterMessages).where(eq(renterMessages.id, messageId));
  if (!row || row.status === "sent" || row.status === "failed" || row.status === "kept") return "done";
  const message = row.html === null || row.text === null ? await storeRendering(db, row) : row;
  const config = getConfig();
  if (!config.smtpUrl) {
    const [kept] = await db
      .update(renterMessages)
      .set({ status: "kept", updatedAt: new Date() })
      .where(and(eq(renterMessages.id, messageId), eq(renterMessages.status, "queued")))
      .returning({ id: renterMessages.id });
    if (kept) observeRenterMessage(row.kind, "kept");
    return kept ? "kept" : "done";
  }

  const leaseSeconds = overallSeconds(config.smtpTimeoutSeconds) + 30;
  const [claimed] = await db
    .update(renterMessages)
    .set({
      status: "sending",
      attempts: sql`${renterMessages.attempts} + 1`,
      leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(renterMessages.id, messageId),
        or(
          eq(renterMessages.status, "queued"),
          and(eq(renterMessages.status, "sending"), or(isNull(renterMessages.leaseUntil), lt(renterMessages.leaseUntil, sql`now()`))),
        ),
      ),
    )
    .returning();
  if (!claimed) {
    const [current] = await db.select().from(renterMessages).where(eq(renterMessages.id, messageId));
    // Held by a live lease: look again when it ends, in case its holder died without settling.
    if (current?.status === "sending" && current.leaseUntil)
      await addJob(db, renterMessageSendTask, { messageId }, { jobKey: sendJobKey(messageId), runAt: current.leaseUntil });
    return "busy";
  }

  const outcome = await sendOverSmtp(
    config.smtpUrl,
    {
      from: config.mailFrom,
      to: claimed.toAddress,
      subject: claimed.subject,
      html: message.html ?? "",
      text: message.text ?? "",
      messageId: claimed.messageId,
    },
    config.smtpTimeoutSeconds,
  );
  const result = await settle(db, claimed, outcome);
  observeRenterMessage(claimed.kind, result);
  if (result !== "sent")
    logger().warn({ messageId, kind: claimed.kind, attempt: claimed.attempts, outcome: result, answer: outcome.answer }, "renter message not sent");
  return result;
}

async function storeRendering(db: Db, row: RenterMessage): Promise<RenterMessage> {
  const data = MESSAGE_DATA[row.kind].parse(row.data);
  const ownerName = (row.data as { ownerName?: unknown }).ownerName;
  // React and react-email load with the first message rendered (docs/decisions.md "Loading on first use").
  const { renderMessage } = await import("./templates/render");
  const { html, text } = await renderMessage(row.kind, { ...data, ...(typeof ownerName === "string" ? { ownerName } : {}) });
  await db.update(renterMessages).set({ html, text }).where(eq(renterMessages.id, row.id));
  return { ...row, html, text };
}

/** Next attempt after `attempt` transient failures: 1, 2, 4, … minutes, at most 4 hours apart. */
export function retryDelaySeconds(attempt: number): number {
  return Math.min(60 * 2 ** Math.max(0, attempt - 1), 4 * 60 * 60);
}

/**
 * Records the server's answer, only while our lease is the current one (the same attempt number):
 * a worker whose lease lapsed and was taken over never overwrites the newer attempt's result. The
 * `sent` write is tried again a few times: once the server accepted, losing that write would send
 * the message again after the lease.
 */
async function settle(db: Db, claimed: RenterMessage, outcome: SmtpOutcome): Promise<"sent" | "retried" | "failed"> {
  const ours = and(eq(renterMessages.id, claimed.id), eq(renterMessages.status, "sending"), eq(renterMessages.attempts, claimed.attempts));
  const now = new Date();
  if (outcome.kind === "accepted") {
    await persistently(() =>
      db
        .update(renterMessages)
        .set({ status: "sent", lastAnswer: outcome.answer, lastAnswerCode: outcome.code, leaseUntil: null, nextAttemptAt: null, sentAt: now, updatedAt: now })
        .where(ours),
    );
    return "sent";
  }
  const retryAt = new Date(Math.min(now.getTime() + retryDelaySeconds(claimed.attempts) * 1000, claimed.giveUpAt.getTime()));
  const final = outcome.kind === "permanent" || now.getTime() >= claimed.giveUpAt.getTime();
  return db.transaction(async (tx) => {
    const [settled] = await tx
      .update(renterMessages)
      .set({
        status: final ? "failed" : "queued",
        lastAnswer: outcome.answer,
        lastAnswerCode: outcome.code,
        leaseUntil: null,
        nextAttemptAt: final ? null : retryAt,
        updatedAt: now,
      })
      .where(ours)
      .returning({ id: renterMessages.id });
    if (settled && !final) await addJob(tx, renterMessageSendTask, { messageId: claimed.id }, { jobKey: sendJobKey(claimed.id), runAt: retryAt });
    return final ? "failed" : "retried";
  });
}

async function persistently(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
    }
  }
}
