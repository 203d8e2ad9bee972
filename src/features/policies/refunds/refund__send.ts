import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../../server/config";
import { getDb, type Tx } from "../../../server/db/client";
import { AppError, errors } from "../../../server/errors";
import { defineTask } from "../../../server/jobs/define-task";
import { logger } from "../../../server/log";
import { paymentCharges } from "../../payments/payments.table";
import type { RefundOutcome } from "../../payments/refund-port";
import { refundsFor } from "../../payments/refunds-for";
import { policyRefunds } from "./refunds.table";

/**
 * Asks the processor for a refund written `pending` by a cancellation (decisions §18 Refunds), with
 * the row's key as `Idempotency-Key`: a retried job, or a second worker, refunds once. A refusal
 * (the payment is not refundable) is recorded as `failed` with the processor's reason and shown in
 * the console; a processor that cannot be reached throws, and graphile-worker tries again.
 */
export const refundSend = defineTask({
  name: "refund__send",
  payload: z.object({ refund_id: z.number().int().positive() }),
  maxAttempts: 12,
  handler: async ({ refund_id }) => {
    const db = await getDb();
    const [row] = await db.select().from(policyRefunds).where(eq(policyRefunds.id, refund_id));
    if (row?.status !== "pending" || row.processorRefundId) return;
    const [charge] = await db.select().from(paymentCharges).where(eq(paymentCharges.id, row.paymentChargeId));
    const port = refundsFor(getConfig());
    let outcome: RefundOutcome;
    try {
      if (port.name !== row.processor) throw errors.invalid(`The payment was taken by ${row.processor}, not ${port.name}`);
      outcome = await port.refund({
        idempotencyKey: row.idempotencyKey,
        payment: { chargeId: row.paymentChargeId, intentId: charge?.intentId ?? null },
        amountCents: row.amountCents,
        metadata: { refund: String(row.id), policy_id: String(row.policyId) },
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== "invalid") throw error;
      logger().warn({ refundId: row.id, reason: error.message }, "refund refused by the processor");
      await db
        .update(policyRefunds)
        .set({ status: "failed", failureReason: error.message, updatedAt: new Date() })
        .where(and(eq(policyRefunds.id, row.id), eq(policyRefunds.status, "pending")));
      return;
    }
    await recordRefundOutcome(db, row.id, outcome);
  },
});

/**
 * Keeps the processor's answer on the refund: its id the first time, then its status whenever the
 * processor says (the job's answer, a webhook, a retrieval). A final status (`succeeded`, `failed`,
 * `canceled`) is never replaced by a pending one, so answers arriving out of order change nothing.
 */
export async function recordRefundOutcome(db: Tx, refundId: number, outcome: RefundOutcome): Promise<void> {
  const [row] = await db.select().from(policyRefunds).where(eq(policyRefunds.id, refundId));
  if (!row) return;
  if (FINAL.has(row.status) && !FINAL.has(outcome.status)) return;
  await db
    .update(policyRefunds)
    .set({ status: outcome.status, processorRefundId: outcome.refundId, failureReason: outcome.failureReason, updatedAt: new Date() })
    .where(eq(policyRefunds.id, refundId));
}

const FINAL = new Set(["succeeded", "failed", "canceled"]);
