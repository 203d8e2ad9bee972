import { and, eq } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { logger } from "../../server/log";
import type { RenterActor, SystemActor } from "../audit/audit";
import type { CardBrand } from "../payments/card";
import type { OpenIntent, PaymentPort } from "../payments/port";
import { intentFor, recordOutcome } from "../payments/recorder";
import { type Policy, policies } from "../policies/policies.table";
import { billingCharges, type Delinquency } from "./billing.table";
import { delinquencyRef, lockOpenDelinquency } from "./delinquencies";
import { complete, dueOf, settleWith } from "./settle";

/**
 * An open delinquency paid by the renter on-session (decisions §18 Monthly premiums: an
 * `authentication_required` month is paid with the renter present; §19 Pay now), through a
 * PaymentIntent the browser confirms: the card never reaches us and 3-D Secure can run. The intent
 * is billing's settlement by other means: once it is `succeeded` (retrieved from the processor,
 * whatever the browser or an event said), the settlement path's own end (`settleWith`) resolves the
 * delinquency, so `delinquency.resolved`, the renter's message and the audit row are those of every
 * other settlement.
 */

/**
 * `pay_now:<policy>:delinquency_<id>:<cents>[:after_<collected>]` (decisions §18: keys derived from
 * our records): one intent per delinquency and amount due, so two tabs and a reload share one; a
 * delinquency grown since (another month declined) is another amount, so another intent. What its
 * settlements already collected is part of the key: paid in part (a month declined while the renter
 * paid), the rest due may equal the amount first asked, and the same key would bring back the intent
 * already paid instead of one for the rest.
 */
export function payNowKey(policyNumber: string, delinquencyId: number, amountCents: number, collectedCents = 0): string {
  const base = `pay_now:${policyNumber}:${delinquencyRef(delinquencyId)}:${amountCents}`;
  return collectedCents > 0 ? `${base}:after_${collectedCents}` : base;
}

/** What a `pay_now:` key pays: the policy by number and the delinquency by id. */
export function payNowTarget(key: string): { policyNumber: string; delinquencyId: number } | undefined {
  const match = /^pay_now:(.+):delinquency_(\d+):\d+(?::after_\d+)?$/.exec(key);
  if (!match) return undefined;
  return { policyNumber: match[1], delinquencyId: Number(match[2]) };
}

/**
 * The intent that pays what `open` has due now, created once per key with metadata naming the
 * policy and the delinquency (recorded at once against our row, as every intent: `intentFor`).
 */
export async function openSettlementIntent(db: Db, port: PaymentPort, policy: Policy, open: Delinquency): Promise<OpenIntent & { amountCents: number }> {
  const due = await dueOf(db, open);
  const intent = await intentFor(db, port, {
    idempotencyKey: payNowKey(policy.policyNumber, open.id, due, open.amountCents - due),
    amountCents: due,
    currency: "usd",
    description: `Outstanding premium of policy ${policy.policyNumber}`,
    metadata: {
      subject: `policy:${policy.policyNumber}`,
      policy_id: String(policy.id),
      policy_number: policy.policyNumber,
      delinquency_id: delinquencyRef(open.id),
      settlement: "on_session",
    },
  });
  return { ...intent, amountCents: due };
}

export type SettlementIntentResult =
  /** This call applied the payment: the delinquency resolved (or, paid in part, what it collected counted). */
  | "settled"
  | "already_settled"
  | "not_paid"
  | "not_ours"
  /** Paid for a delinquency no longer open (settled another way meanwhile): logged for a refund. */
  | "paid_twice";

/**
 * The one way an on-session intent settles a delinquency (the browser's return, the token's
 * confirmation, `payment_intent.succeeded` and the reconciliation job all come here). Under the
 * policy's and the delinquency's locks, the intent's settlement row is looked for first, so of any
 * number of callers exactly one writes it: the rest answer `already_settled`.
 */
export async function completeSettlementIntent(
  db: Db,
  port: PaymentPort,
  intentId: string,
  actor: RenterActor | SystemActor = { system: `${port.name}_webhook` },
): Promise<SettlementIntentResult> {
  const { outcome } = await port.retrieveIntent(intentId);
  const row = await recordOutcome(db, port.name, outcome);
  const target = row ? payNowTarget(row.idempotencyKey) : undefined;
  if (!row || !target) return "not_ours";
  if (outcome.status !== "succeeded") return "not_paid";
  return db.transaction(async (tx) => {
    // FOR NO KEY UPDATE: callers of one policy queue here; a settlement's foreign keys (key share) never wait on it.
    const [policy] = await tx.select().from(policies).where(eq(policies.policyNumber, target.policyNumber)).for("no key update");
    if (!policy) return "not_ours";
    const open = await lockOpenDelinquency(tx, policy.id);
    const [done] = await tx
      .select({ id: billingCharges.id })
      .from(billingCharges)
      .where(and(eq(billingCharges.policyId, policy.id), eq(billingCharges.kind, "settlement"), eq(billingCharges.processorChargeId, intentId)));
    if (done) return "already_settled";
    const [settlement] = await tx
      .insert(billingCharges)
      .values({ policyId: policy.id, kind: "settlement", amountCents: outcome.amountCents, delinquencyId: target.delinquencyId })
      .returning();
    const result = {
      status: "succeeded" as const,
      chargeId: intentId,
      last4: outcome.method?.last4 ?? "",
      brand: (outcome.method?.brand ?? "other") as CardBrand,
    };
    if (open?.id !== target.delinquencyId) {
      // Kept as what it is (money taken for a delinquency already settled), never applied to another one.
      await complete(tx, settlement, result);
      logger().error({ policyId: policy.id, intentId, delinquencyId: target.delinquencyId }, "delinquency paid twice: refund the extra charge");
      return "paid_twice";
    }
    const due = await dueOf(tx, open);
    if (outcome.amountCents < due) {
      // Paid for a smaller amount than is due now (a month declined while the renter paid): counted, still open.
      await complete(tx, settlement, result);
      return "settled";
    }
    await settleWith(tx, actor, { policy, open, row: settlement, result });
    return "settled";
  });
}
