import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Db } from "../../server/db/client";
import { appErrorOf } from "../../server/errors";
import { logger } from "../../server/log";
import { noticeChargeReceipt } from "../messages/notices";
import type { ChargeResult, PaymentProcessor } from "../payments/processor";
import { processorFor } from "../payments/processor-for";
import { type Policy, policies } from "../policies/policies.table";
import { type BillingCharge, billingCharges } from "./billing.table";
import { delinquencyRef, recordMissedPayment } from "./delinquencies";
import { FAILURE_REASONS } from "./messages";
import { storedMethodsOf } from "./method";
import { duePeriods } from "./schedule";

/** A month charged by this run (`billing run`'s `charged` items). */
export type ChargedItem = { policy_number: string; period_start: string; amount_cents: number; charge_id: string };
/** A month this run could not charge (`failed` items): `reason` from `FAILURE_REASONS`. */
export type FailedItem = {
  policy_number: string;
  period_start: string;
  amount_cents: number;
  reason: (typeof FAILURE_REASONS)[keyof typeof FAILURE_REASONS];
  /** The delinquency a decline opened or added to. */
  delinquency_id?: string;
  /** What the processor said when it did not answer (never card data). */
  message?: string;
};
export type BillingRun = { as_of: string; charged: ChargedItem[]; failed: FailedItem[] };

/** The statuses billed: paid policies whose coverage has not ended (a lagging `upcoming` too). */
const BILLED_STATUSES = ["active", "upcoming"] as const;
const BATCH = 500;

/** The processor's idempotency key of a charge row: a retry of the row is the same payment. */
export const chargeKey = (chargeId: number) => `billing_charge:${chargeId}`;
/** The charge subject (payments' convention): `billing fail-next` arms it. */
export const policySubject = (policyNumber: string) => `policy:${policyNumber}`;

/**
 * `billing run` and the daily cron (decisions §11 Billing; docs/decisions.md, Billing and
 * delinquencies): every monthly policy's months due by `asOf` (schedule.ts) are charged once to the
 * card of its purchase. Per month: a `billing_charges` row is inserted first (unique per policy and
 * month), then the processor is called with the row's key, then the row is completed — only if
 * still pending, so of two runs racing on one month one completes it, and the processor's
 * idempotency answers both with the one charge. A row left pending (the processor did not answer, or
 * the process died mid-way) is charged again by the next run under the same key: never twice.
 */
export async function runBilling(db: Db, asOf: string, processor: PaymentProcessor = processorFor(getConfig())): Promise<BillingRun> {
  const run: BillingRun = { as_of: asOf, charged: [], failed: [] };
  let after = 0;
  for (;;) {
    const batch = await db
      .select()
      .from(policies)
      .where(
        and(eq(policies.cadence, "monthly"), inArray(policies.status, [...BILLED_STATUSES]), lte(policies.coverageStartDate, asOf), gt(policies.id, after)),
      )
      .orderBy(asc(policies.id))
      .limit(BATCH);
    if (batch.length === 0) return run;
    after = batch[batch.length - 1].id;
    await billBatch(db, batch, asOf, processor, run);
  }
}

async function billBatch(db: Db, batch: Policy[], asOf: string, processor: PaymentProcessor, run: BillingRun): Promise<void> {
  const ids = batch.map((policy) => policy.id);
  const methods = await storedMethodsOf(db, ids);
  const existing = await db
    .select({ policyId: billingCharges.policyId, periodIndex: billingCharges.periodIndex })
    .from(billingCharges)
    .where(and(eq(billingCharges.kind, "period"), inArray(billingCharges.policyId, ids)));
  const billed = new Set(existing.map((row) => `${row.policyId}/${row.periodIndex}`));

  const rows: (typeof billingCharges.$inferInsert)[] = [];
  for (const policy of batch) {
    for (const period of duePeriods(policy, asOf)) {
      if (billed.has(`${policy.id}/${period.index}`)) continue;
      if (!methods.has(policy.id)) {
        run.failed.push({ ...itemOf(policy, period.start, policy.premiumCents), reason: FAILURE_REASONS.noPaymentMethod });
        continue;
      }
      rows.push({ policyId: policy.id, kind: "period", periodIndex: period.index, periodStart: period.start, amountCents: policy.premiumCents });
    }
  }
  // A row another run inserted meanwhile is kept (its month is charged once, below or by that run).
  if (rows.length) await db.insert(billingCharges).values(rows).onConflictDoNothing();

  const pending = await db
    .select()
    .from(billingCharges)
    .where(and(eq(billingCharges.kind, "period"), eq(billingCharges.status, "pending"), inArray(billingCharges.policyId, ids)))
    .orderBy(asc(billingCharges.id));
  const byId = new Map(batch.map((policy) => [policy.id, policy]));
  for (const row of pending) {
    const policy = byId.get(row.policyId) as Policy;
    const methodId = methods.get(policy.id);
    if (!methodId) continue;
    await chargeMonth(db, processor, row, policy, methodId, run);
  }
}

const itemOf = (policy: Policy, periodStart: string, amountCents: number) => ({
  policy_number: policy.policyNumber,
  period_start: periodStart,
  amount_cents: amountCents,
});

async function chargeMonth(db: Db, processor: PaymentProcessor, row: BillingCharge, policy: Policy, methodId: string, run: BillingRun): Promise<void> {
  const item = itemOf(policy, row.periodStart as string, row.amountCents);
  let result: ChargeResult;
  try {
    result = await processor.charge({
      idempotencyKey: chargeKey(row.id),
      amountCents: row.amountCents,
      currency: "usd",
      description: `Monthly premium of policy ${policy.policyNumber} from ${row.periodStart}`,
      metadata: { subject: policySubject(policy.policyNumber), period: row.periodStart ?? undefined },
      methodId,
    });
  } catch (error) {
    // Not a decline: the row stays pending and the next run tries again with the same key.
    const known = appErrorOf(error);
    if (!known) logger().error({ err: error, policyId: policy.id, chargeId: row.id }, "billing charge failed unexpectedly");
    run.failed.push({ ...item, reason: FAILURE_REASONS.processorError, message: known?.message ?? "The payment processor failed" });
    return;
  }
  const outcome = await db.transaction(async (tx) => {
    const [done] = await tx
      .update(billingCharges)
      .set({
        status: result.status === "succeeded" ? "succeeded" : "declined",
        processorChargeId: result.chargeId,
        declineCode: result.status === "declined" ? result.code : null,
        completedAt: new Date(),
      })
      .where(and(eq(billingCharges.id, row.id), eq(billingCharges.status, "pending")))
      .returning();
    // Another run completed this month first: it reports it.
    if (!done) return undefined;
    if (result.status === "succeeded") {
      // decisions §19: a receipt for every successful charge, written with it.
      await noticeChargeReceipt(tx, policy, done);
      return { charged: { ...item, charge_id: result.chargeId } };
    }
    const { delinquency } = await recordMissedPayment(tx, policy, row.amountCents);
    await tx.update(billingCharges).set({ delinquencyId: delinquency.id }).where(eq(billingCharges.id, row.id));
    return { failed: { ...item, reason: FAILURE_REASONS.declined, delinquency_id: delinquencyRef(delinquency.id) } };
  });
  if (outcome?.charged) run.charged.push(outcome.charged);
  if (outcome?.failed) run.failed.push(outcome.failed);
}
