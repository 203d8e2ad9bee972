import { eq } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Db } from "../../server/db/client";
import { AppError, appErrorOf, errors } from "../../server/errors";
import { type AuditActor, recordAudit } from "../audit/audit";
import type { ChargeResult, PaymentProcessor } from "../payments/processor";
import { processorFor } from "../payments/processor-for";
import { type Policy, policies } from "../policies/policies.table";
import { delinquencyRef, lockOpenDelinquency, resolveDelinquency } from "./delinquencies";
import { BILLING_MESSAGES as M } from "./messages";
import { storedMethodOf } from "./method";
import { chargeKey, policySubject } from "./run";
import { billingCharges } from "./tables";

export type Settlement = { policy_number: string; delinquency_id?: string; settled_cents?: number; charge_id?: string };

/**
 * `billing settle` and the console's Settle (decisions §4, §11): charges what the policy's open
 * delinquency has outstanding to the card of its purchase; paid, the delinquency is resolved
 * (`delinquency.resolved`, `amount_cents` 0) and the settlement kept as a charge of the policy, with
 * the audit row, in one transaction. The delinquency's row stays locked while the processor answers,
 * so two settlements charge once (the second finds nothing open) and a month the cron declines
 * meanwhile waits and opens a new delinquency. A decline or a processor failure changes nothing: a
 * clear error, the delinquency open with its amount. No open delinquency: nothing to charge.
 */
export async function settlePolicy(db: Db, actor: AuditActor, policyId: number, processor: PaymentProcessor = processorFor(getConfig())): Promise<Settlement> {
  return db.transaction(async (tx) => {
    const [policy] = await tx.select().from(policies).where(eq(policies.id, policyId));
    if (!policy) throw errors.notFound(M.policyNotFound);
    const open = await lockOpenDelinquency(tx, policy.id);
    if (!open) return { policy_number: policy.policyNumber };
    const methodId = await storedMethodOf(tx, policy.id);
    if (!methodId) throw errors.conflict(M.noPaymentMethod);

    const [row] = await tx.insert(billingCharges).values({ policyId: policy.id, kind: "settlement", amountCents: open.amountCents }).returning();
    const result = await charge(processor, policy, row.id, open.amountCents, methodId);
    if (result.status === "declined") throw errors.conflict(M.settleDeclined);

    await tx
      .update(billingCharges)
      .set({ status: "succeeded", processorChargeId: result.chargeId, delinquencyId: open.id, completedAt: new Date() })
      .where(eq(billingCharges.id, row.id));
    const resolved = await resolveDelinquency(tx, open, policy);
    await recordAudit(tx, actor, {
      action: "billing.settle",
      subject: { type: "policy", id: policy.id },
      ownerId: policy.ownerId,
      before: { delinquency_id: delinquencyRef(open.id), status: open.status, amount_cents: open.amountCents },
      after: {
        delinquency_id: delinquencyRef(resolved.id),
        status: resolved.status,
        amount_cents: resolved.amountCents,
        settled_cents: resolved.settledCents,
        charge_id: result.chargeId,
      },
    });
    return { policy_number: policy.policyNumber, delinquency_id: delinquencyRef(open.id), settled_cents: open.amountCents, charge_id: result.chargeId };
  });
}

async function charge(processor: PaymentProcessor, policy: Policy, rowId: number, amountCents: number, methodId: string): Promise<ChargeResult> {
  try {
    return await processor.charge({
      idempotencyKey: chargeKey(rowId),
      amountCents,
      currency: "usd",
      description: `Outstanding premium of policy ${policy.policyNumber}`,
      metadata: { subject: policySubject(policy.policyNumber), settlement: "true" },
      methodId,
    });
  } catch (error) {
    const known = appErrorOf(error);
    // A processor that cannot take payment (production without one) keeps its own 503 message.
    if (known?.kind === "unavailable") throw known;
    throw known instanceof AppError ? errors.conflict(`${M.settleFailed}: ${known.message}`) : error;
  }
}

/** `billing settle --policy NUMBER`: by number, as the CLI names policies. */
export async function settlePolicyByNumber(db: Db, actor: AuditActor, policyNumber: string, processor?: PaymentProcessor): Promise<Settlement> {
  const [policy] = await db.select({ id: policies.id }).from(policies).where(eq(policies.policyNumber, policyNumber.trim()));
  if (!policy) throw errors.notFound(M.policyNotFound);
  return settlePolicy(db, actor, policy.id, processor);
}
