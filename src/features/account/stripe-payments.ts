import { and, eq } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Db } from "../../server/db/client";
import { errors } from "../../server/errors";
import { delinquencies } from "../billing/billing.table";
import { completeSettlementIntent, openSettlementIntent, payNowTarget } from "../billing/settle-intent";
import { renterPayUrl } from "../messages/links";
import type { PaymentPort } from "../payments/port";
import { paymentPortFor } from "../payments/port-for";
import { paymentByIntent, recordOutcome } from "../payments/recorder";
import type { Policy } from "../policies/policies.table";
import { ACCOUNT_MESSAGES as M } from "./messages";
import { policyOfEmail } from "./owned";

/**
 * Pay now through Stripe (decisions §18 Monthly premiums, §19 Pay now; docs/decisions.md, "Renter
 * account: Pay now and Update card through Stripe"). With Stripe a card never reaches us, so the
 * account's pay page confirms a PaymentIntent for the open delinquency instead of taking a typed card:
 * the Payment Element makes a ConfirmationToken, the server confirms it (`payNowWithToken`), 3-D
 * Secure goes to the bank and comes back to the same page (`payNowReturn`). Whichever of those, the
 * webhook and the reconciliation job sees the intent `succeeded` first settles the delinquency
 * through billing's settlement path (`completeSettlementIntent`); the others find it settled.
 */

/** What the Payment Element needs on an account page (`intentId` is a `pi_…` or a `seti_…`). */
export type StripeCardForm = { publishableKey: string; intentId: string; clientSecret: string; returnUrl: string; lastError?: string };

export type StripePayNowView =
  | { outcome: "nothing_due" }
  /** Paid already (the intent had succeeded before this visit): settled now if it was not. */
  | { outcome: "paid" }
  | { outcome: "processing" }
  | { outcome: "open"; amountCents: number; form: StripeCardForm };

export type StripePayNowOutcome =
  | { outcome: "paid" }
  | { outcome: "nothing_due" }
  | { outcome: "requires_action"; redirectUrl: string | null }
  | { outcome: "processing" }
  | { outcome: "declined"; message: string };

/** Stripe's ids the browser may hand us: a ConfirmationToken or a PaymentMethod; and a PaymentIntent's. */
export const STRIPE_TOKEN = /^(ctoken|pm)_[A-Za-z0-9_]{1,200}$/;
const INTENT = /^pi_[A-Za-z0-9_]{1,200}$/;

function portOrRefuse(): PaymentPort {
  const port = paymentPortFor(getConfig());
  if (!port) throw errors.conflict(M.stripeNotConfigured);
  return port;
}

/** The signed-in renter's policy, or 404 (another renter's id is not found, decisions §19). */
export async function renterPolicy(db: Db, email: string, policyId: number): Promise<Policy> {
  const policy = await policyOfEmail(db, email, policyId);
  if (!policy) throw errors.notFound(M.policyNotFound);
  return policy;
}

async function openDelinquencyOf(db: Db, policyId: number) {
  const [open] = await db
    .select()
    .from(delinquencies)
    .where(and(eq(delinquencies.policyId, policyId), eq(delinquencies.status, "active")));
  return open;
}

/**
 * The pay page through Stripe: the open delinquency's intent, created once per delinquency and
 * amount due (`pay_now:` key) and reused by every visit. An intent found `succeeded` (paid, its
 * event not yet handled) is settled now and the page says so.
 */
export async function openStripePayNow(db: Db, email: string, policyId: number): Promise<StripePayNowView> {
  const port = portOrRefuse();
  const policy = await renterPolicy(db, email, policyId);
  const open = await openDelinquencyOf(db, policy.id);
  if (!open) return { outcome: "nothing_due" };
  const intent = await openSettlementIntent(db, port, policy, open);
  const outcome = intent.outcome;
  if (outcome.status === "succeeded") {
    await completeSettlementIntent(db, port, intent.intentId, { renter: email });
    return { outcome: "paid" };
  }
  if (outcome.status === "processing") return { outcome: "processing" };
  if (outcome.status === "canceled" || !intent.clientSecret) throw errors.unavailable(M.stripeUnavailable);
  const lastError = outcome.status === "requires_payment_method" ? outcome.lastDecline?.message : undefined;
  return {
    outcome: "open",
    amountCents: intent.amountCents,
    form: {
      publishableKey: getConfig().stripe?.publishableKey ?? "",
      intentId: intent.intentId,
      clientSecret: intent.clientSecret,
      returnUrl: renterPayUrl(policy.id),
      ...(lastError ? { lastError } : {}),
    },
  };
}

/**
 * The Payment Element's token confirms the delinquency's intent on the server. `succeeded`: settled
 * now. `requires_action`: the browser goes to the bank (`redirectUrl`), which returns to the pay page.
 * A decline leaves the intent open for another card; nothing is settled.
 */
export async function payNowWithToken(db: Db, email: string, policyId: number, token: string): Promise<StripePayNowOutcome> {
  if (!STRIPE_TOKEN.test(token)) throw errors.invalid(M.cardTokenInvalid);
  const port = portOrRefuse();
  const view = await openStripePayNow(db, email, policyId);
  if (view.outcome !== "open") return view;
  const outcome = await port.confirmIntent(view.form.intentId, { token, returnUrl: view.form.returnUrl });
  await recordOutcome(db, port.name, outcome);
  switch (outcome.status) {
    case "succeeded":
      await completeSettlementIntent(db, port, view.form.intentId, { renter: email });
      return { outcome: "paid" };
    case "requires_action":
      return { outcome: "requires_action", redirectUrl: outcome.redirectUrl };
    case "processing":
      return { outcome: "processing" };
    case "declined":
      return { outcome: "declined", message: outcome.decline.message };
    case "requires_payment_method":
      return { outcome: "declined", message: outcome.lastDecline?.message ?? M.payDeclined };
    case "canceled":
      throw errors.unavailable(M.stripeUnavailable);
  }
}

/**
 * The return from the bank (`?payment_intent=pi_…` on the pay page): the intent is retrieved, never
 * the query believed (`redirect_status` is not read), and settles the delinquency if it paid. An
 * intent that is not this policy's pay-now intent changes nothing.
 */
export async function payNowReturn(db: Db, email: string, policyId: number, intentId: string): Promise<"paid" | "not_paid" | "ignored"> {
  const port = portOrRefuse();
  const policy = await renterPolicy(db, email, policyId);
  if (!INTENT.test(intentId)) return "ignored";
  const row = await paymentByIntent(db, intentId);
  if (!row || payNowTarget(row.idempotencyKey)?.policyNumber !== policy.policyNumber) return "ignored";
  const result = await completeSettlementIntent(db, port, intentId, { renter: email });
  return result === "not_paid" || result === "not_ours" ? "not_paid" : "paid";
}
