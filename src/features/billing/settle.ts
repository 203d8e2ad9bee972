import { and, asc, eq, sum } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Db, Tx } from "../../server/db/client";
import { AppError, appErrorOf, errors } from "../../server/errors";
import { type AuditActor, type RenterActor, recordAudit, type SystemActor } from "../audit/audit";
import type { ChargeResult, PaymentProcessor } from "../payments/processor";
import { processorFor } from "../payments/processor-for";
import { type Policy, policies } from "../policies/policies.table";
import { type BillingCharge, billingCharges, type Delinquency } from "./billing.table";
import { delinquencyRef, lockOpenDelinquency, resolveDelinquency } from "./delinquencies";
import { BILLING_MESSAGES as M } from "./messages";
import { storedMethodOf } from "./method";
import { chargeKey, policySubject } from "./run";

export type Settlement = { policy_number: string; delinquency_id?: string; settled_cents?: number; charge_id?: string };

type Attempt = { processor: PaymentProcessor; policy: Policy; methodId: string };

/**
 * `billing settle` and the console's Settle (decisions §4, §11): charges what the policy's open
 * delinquency has outstanding to the card of its purchase; paid, the delinquency is resolved
 * (`delinquency.resolved`, `amount_cents` 0) and the settlement kept as a charge of the policy, with
 * the audit row, in one transaction. The delinquency's row stays locked while the processor answers,
 * so two settlements charge once (the second finds nothing open) and a month the cron declines
 * meanwhile waits and opens a new delinquency. No open delinquency: nothing to charge.
 *
 * Never twice (docs/decisions.md, Billing: settlement retries never charge twice): the `pending`
 * settlement row whose id is the processor's key is committed through `db` before the charge, as
 * the monthly run does, so it outlives a failure of the main transaction after the processor
 * charged; the next settle finds it and replays the same key. A decline is recorded through `db`
 * too (the main transaction then throws) and the next settle is a new attempt with a new key.
 */
export async function settlePolicy(
  db: Db,
  actor: AuditActor | RenterActor,
  policyId: number,
  processor: PaymentProcessor = processorFor(getConfig()),
  options: { methodId?: string } = {},
): Promise<Settlement> {
  return db.transaction(async (tx) => {
    const [policy] = await tx.select().from(policies).where(eq(policies.id, policyId));
    if (!policy) throw errors.notFound(M.policyNotFound);
    const open = await lockOpenDelinquency(tx, policy.id);
    if (!open) return { policy_number: policy.policyNumber };
    // The renter's "Pay now" (decisions §19) brings a card of its own; staff settle with the policy's.
    const methodId = options.methodId ?? (await storedMethodOf(tx, policy.id));
    if (!methodId) throw errors.conflict(M.noPaymentMethod);
    const attempt = { processor, policy, methodId };

    const row = await settlementRow(db, attempt, open);
    const result = await charge(attempt, row);
    if (result.status === "declined") {
      await complete(db, row, result);
      throw errors.conflict(M.settleDeclined);
    }
    return settleWith(tx, actor, { policy, open, row, result });
  });
}

/**
 * A paid settlement's end (the settlement path's one place for it, whoever took the money: `billing
 * settle`, the console, the renter's Pay now with a typed card or on-session through Stripe,
 * `settle-intent.ts`): its row completed, the delinquency resolved (`delinquency.resolved` and the
 * renter's message, `resolveDelinquency`) and the audit row, in the caller's transaction, which
 * holds the delinquency's lock.
 */
export async function settleWith(
  tx: Tx,
  actor: AuditActor | RenterActor | SystemActor,
  paid: { policy: Policy; open: Delinquency; row: BillingCharge; result: Extract<ChargeResult, { status: "succeeded" }> },
): Promise<Settlement> {
  const { policy, open, row, result } = paid;
  await complete(tx, row, result);
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
}

/** What an open delinquency still has due: its amount less what its settlements already collected. */
export async function dueOf(db: Tx, open: Delinquency): Promise<number> {
  const [{ collected }] = await db
    .select({ collected: sum(billingCharges.amountCents).mapWith(Number) })
    .from(billingCharges)
    .where(and(eq(billingCharges.kind, "settlement"), eq(billingCharges.delinquencyId, open.id), eq(billingCharges.status, "succeeded")));
  return open.amountCents - (collected ?? 0);
}

/**
 * The row (and so the key) this settlement charges, committed through `db` (its own connection,
 * autocommit) while the caller's transaction holds the delinquency's lock, so no other settlement
 * of it runs meanwhile and at most one settlement row of a delinquency is ever `pending`.
 *
 * Due is what the delinquency has outstanding less what its settlements already collected. A
 * pending row for that amount is an earlier attempt whose outcome was never recorded: reused, so
 * the processor answers its first result instead of charging again. A pending row of another
 * amount (a month declined since, so the delinquency grew) cannot be reused — its key for a new
 * amount is refused — nor dropped, since the processor may have charged it: it is replayed first
 * under its own key and amount, its answer recorded, and a paid one counts as collected.
 */
async function settlementRow(db: Db, attempt: Attempt, open: Delinquency): Promise<BillingCharge> {
  const settlementsOf = and(eq(billingCharges.kind, "settlement"), eq(billingCharges.delinquencyId, open.id));
  const [pending] = await db
    .select()
    .from(billingCharges)
    .where(and(settlementsOf, eq(billingCharges.status, "pending")))
    .orderBy(asc(billingCharges.id))
    .limit(1);
  const due = await dueOf(db, open);
  if (pending?.amountCents === due) return pending;
  if (pending) {
    const earlier = await charge(attempt, pending);
    await complete(db, pending, earlier);
    if (earlier.status === "succeeded") return settlementRow(db, attempt, open);
  }
  const [row] = await db
    .insert(billingCharges)
    .values({ policyId: attempt.policy.id, kind: "settlement", amountCents: due, delinquencyId: open.id })
    .returning();
  return row;
}

/** Records the processor's answer on a row still pending (the monthly run's rule: completed once). */
export async function complete(db: Tx, row: BillingCharge, result: ChargeResult): Promise<void> {
  await db
    .update(billingCharges)
    .set({
      status: result.status,
      processorChargeId: result.chargeId,
      declineCode: result.status === "declined" ? result.code : null,
      completedAt: new Date(),
    })
    .where(and(eq(billingCharges.id, row.id), eq(billingCharges.status, "pending")));
}

/** A processor failure (not a decline) leaves the row pending: its outcome is unknown, the next settle replays it. */
async function charge({ processor, policy, methodId }: Attempt, row: BillingCharge): Promise<ChargeResult> {
  try {
    return await processor.charge({
      idempotencyKey: chargeKey(row.id),
      amountCents: row.amountCents,
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
