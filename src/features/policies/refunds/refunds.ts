import { and, desc, eq } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { addJob } from "../../../server/jobs/define-task";
import { applications } from "../../enrollment/applications/applications.table";
import { paymentCharges } from "../../payments/payments.table";
import type { Policy } from "../policies.table";
import { policyStatusChanges } from "../status/status-changes.table";
import { unearnedPremiumCents } from "./pro-rata";
import { refundSend } from "./refund__send";
import { type PolicyRefund, policyRefunds } from "./refunds.table";

/** `refund:<policy>:<cancellation>` (decisions §18: every call that creates something has a key from our record). */
export const refundKey = (policyNumber: string, cancellationId: number) => `refund:${policyNumber}:${cancellationId}`;

/**
 * In the cancellation's transaction (decisions §18 Refunds): an upfront-paid policy canceled before
 * its end gets its unearned premium back, pro rata by day, through the processor that took the
 * payment. The refund row is written `pending` with the `refund__send` job that asks the processor,
 * so the cancellation commits whatever the processor does and the refund is asked exactly once.
 * Monthly policies are not refunded (their billing stops with the status); a policy with no
 * succeeded payment of its own (issued by staff, or before payments were recorded) has nothing to refund.
 */
export async function refundOnCancellation(tx: Tx, policy: Policy, canceledOn: string): Promise<PolicyRefund | null> {
  if (policy.cadence !== "upfront" || policy.applicationId === null) return null;
  const [payment] = await tx
    .select({ charge: paymentCharges })
    .from(applications)
    .innerJoin(paymentCharges, eq(paymentCharges.id, applications.paymentChargeId))
    .where(and(eq(applications.id, policy.applicationId), eq(paymentCharges.status, "succeeded")));
  if (!payment) return null;
  const amountCents = unearnedPremiumCents(payment.charge.amountCents, { start: policy.coverageStartDate, end: policy.coverageEndDate }, canceledOn);
  if (amountCents <= 0) return null;
  const [cancellation] = await tx
    .select({ id: policyStatusChanges.id })
    .from(policyStatusChanges)
    .where(and(eq(policyStatusChanges.policyId, policy.id), eq(policyStatusChanges.toStatus, "canceled")))
    .orderBy(desc(policyStatusChanges.id))
    .limit(1);
  if (!cancellation) return null;
  const [refund] = await tx
    .insert(policyRefunds)
    .values({
      policyId: policy.id,
      cancellationId: cancellation.id,
      idempotencyKey: refundKey(policy.policyNumber, cancellation.id),
      amountCents,
      paymentChargeId: payment.charge.id,
      processor: payment.charge.processor,
    })
    .onConflictDoNothing({ target: policyRefunds.idempotencyKey })
    .returning();
  if (!refund) return null;
  await addJob(tx, refundSend, { refund_id: refund.id });
  return refund;
}

/** A policy's refunds, newest first (the console's policy page and `policy show`). */
export async function refundsOfPolicy(tx: Tx, policyId: number): Promise<PolicyRefund[]> {
  return tx.select().from(policyRefunds).where(eq(policyRefunds.policyId, policyId)).orderBy(desc(policyRefunds.id));
}
