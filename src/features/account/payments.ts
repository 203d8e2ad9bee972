import { and, eq } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Db } from "../../server/db/client";
import { appErrorOf, errors } from "../../server/errors";
import { recordAudit } from "../audit/audit";
import { delinquencies } from "../billing/billing.table";
import { BILLING_MESSAGES } from "../billing/messages";
import { replacePolicyMethod } from "../billing/method";
import { settlePolicy } from "../billing/settle";
import { type CardInput, checkCard } from "../payments/card";
import type { PaymentProcessor } from "../payments/processor";
import { processorFor } from "../payments/processor-for";
import { ACCOUNT_MESSAGES as M } from "./messages";
import { policyOfEmail } from "./owned";

/**
 * The account's two payment actions (decisions §19), for the signed-in renter's email only: the
 * policy is looked up through `policyOfEmail`, so another renter's id answers not found.
 */

export type PayNowOutcome = { outcome: "paid"; amountCents: number; chargeId?: string } | { outcome: "nothing_due" } | { outcome: "declined"; message: string };

/**
 * "Pay now": the card typed is kept by the processor (through the processor interface, the
 * simulator in staging) and the open delinquency settled with it by billing's own settlement
 * (billing/settle.ts: one charge per attempt, the delinquency resolved, `delinquency.resolved`
 * emitted, the audit row under the renter). The card does not replace the policy's monthly card:
 * "Update card" does that.
 */
export async function payNow(
  db: Db,
  email: string,
  policyId: number,
  card: CardInput,
  processor: PaymentProcessor = processorFor(getConfig()),
): Promise<PayNowOutcome> {
  const policy = await policyOfEmail(db, email, policyId);
  if (!policy) throw errors.notFound(M.policyNotFound);
  const [open] = await db
    .select({ id: delinquencies.id })
    .from(delinquencies)
    .where(and(eq(delinquencies.policyId, policy.id), eq(delinquencies.status, "active")));
  if (!open) return { outcome: "nothing_due" };
  const checked = checkCard(card, new Date());
  if (checked.errors) throw errors.invalidFields(M.cardInvalid, checked.errors);
  const method = await processor.storeMethod(card);
  try {
    const settled = await settlePolicy(db, { renter: email }, policy.id, processor, { methodId: method.methodId });
    if (settled.settled_cents === undefined) return { outcome: "nothing_due" };
    return { outcome: "paid", amountCents: settled.settled_cents, chargeId: settled.charge_id };
  } catch (error) {
    const known = appErrorOf(error);
    if (known?.kind === "conflict" && known.message === BILLING_MESSAGES.settleDeclined) return { outcome: "declined", message: M.payDeclined };
    throw error;
  }
}

/**
 * "Update card" for a monthly policy still running: the processor keeps the new card and the
 * policy's next monthly charges use it (billing/method.ts `storedMethodsOf`), audited.
 */
export async function updateCard(db: Db, email: string, policyId: number, card: CardInput, processor: PaymentProcessor = processorFor(getConfig())) {
  const policy = await policyOfEmail(db, email, policyId);
  if (!policy) throw errors.notFound(M.policyNotFound);
  if (policy.cadence !== "monthly") throw errors.conflict(M.notMonthly);
  if (policy.status === "expired" || policy.status === "canceled") throw errors.conflict(M.policyEnded);
  const checked = checkCard(card, new Date());
  if (checked.errors) throw errors.invalidFields(M.cardInvalid, checked.errors);
  const method = await processor.storeMethod(card);
  await db.transaction(async (tx) => {
    await replacePolicyMethod(tx, policy.id, method.methodId);
    await recordAudit(
      tx,
      { renter: email },
      {
        action: "billing.card_updated",
        subject: { type: "policy", id: policy.id },
        ownerId: policy.ownerId,
        after: { method_id: method.methodId, brand: method.brand, last4: method.last4 },
      },
    );
  });
  return { brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear };
}
