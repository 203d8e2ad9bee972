import { getConfig } from "../../server/config";
import type { Db } from "../../server/db/client";
import { appErrorOf, errors } from "../../server/errors";
import { renterAccountUrl } from "../messages/links";
import { completeCardSetup, startCardSetup } from "../payments/card-setup";
import { cardSetupFor } from "../payments/card-setup-for";
import type { CardSetupPort } from "../payments/card-setup-port";
import { PAYMENT_MESSAGES } from "../payments/messages";
import { ACCOUNT_MESSAGES as M } from "./messages";
import { renterPolicy, STRIPE_TOKEN, type StripeCardForm } from "./stripe-payments";

/**
 * Update card through Stripe (decisions §18 `setup_intent.succeeded`, §19 Update card; docs/decisions.md,
 * "A new card through Stripe"): the card page opens the policy's SetupIntent on the renter's Customer
 * (`startCardSetup`), the Payment Element makes a ConfirmationToken, the server confirms it
 * (`updateCardWithToken`), and 3-D Secure returns to the same page (`cardUpdateReturn`). Whichever of
 * the confirmation, the return and `setup_intent.succeeded` sees it `succeeded` first makes the card
 * the policy's monthly method (`completeCardSetup`, once); the next `billing run` charges it.
 */

export type StripeCardView = { outcome: "saved" } | { outcome: "processing" } | { outcome: "open"; form: StripeCardForm };
export type StripeCardOutcome =
  | { outcome: "saved" }
  | { outcome: "requires_action"; redirectUrl: string | null }
  | { outcome: "processing" }
  | { outcome: "declined"; message: string };

const SETUP = /^seti_[A-Za-z0-9_]{1,200}$/;

/** Where 3-D Secure returns after saving a card: the account's card page of the policy. */
export function renterCardUrl(policyId: number): string {
  return renterAccountUrl(`/policies/${policyId}/card`);
}

function portOrRefuse(): CardSetupPort {
  const port = cardSetupFor(getConfig());
  if (!port) throw errors.conflict(M.stripeNotConfigured);
  return port;
}

async function renterPolicyId(db: Db, email: string, policyId: number): Promise<number> {
  return (await renterPolicy(db, email, policyId)).id;
}

/**
 * The card page through Stripe: the policy's SetupIntent (one per next card: `setup:<policy>:<n>`).
 * One found `succeeded` (saved, its event not yet handled) is applied now and the page says so.
 * A policy not monthly, ended, or whose card is on no Customer: 409 from `startCardSetup`.
 */
export async function openStripeCardUpdate(db: Db, email: string, policyId: number): Promise<StripeCardView> {
  const port = portOrRefuse();
  const id = await renterPolicyId(db, email, policyId);
  const setup = await startCardSetup(db, port, id).catch((error) => {
    // Said in the renter's words: a card kept before Stripe (on no Customer) cannot have a new one saved beside it.
    if (appErrorOf(error)?.message === PAYMENT_MESSAGES.setupNoCustomer) throw errors.conflict(M.cardNotReplaceable);
    throw error;
  });
  if (setup.status === "succeeded") {
    await completeCardSetup(db, port, setup.setupIntentId, { actor: { renter: email }, policyId: id });
    return { outcome: "saved" };
  }
  if (setup.status === "processing") return { outcome: "processing" };
  if (setup.status === "canceled" || !setup.clientSecret) throw errors.unavailable(M.stripeUnavailable);
  return {
    outcome: "open",
    form: {
      publishableKey: getConfig().stripe?.publishableKey ?? "",
      intentId: setup.setupIntentId,
      clientSecret: setup.clientSecret,
      returnUrl: renterCardUrl(id),
      ...(setup.lastError ? { lastError: setup.lastError.message } : {}),
    },
  };
}

/** The Payment Element's token confirms the SetupIntent on the server; a card refused leaves the policy's card as it was. */
export async function updateCardWithToken(db: Db, email: string, policyId: number, token: string): Promise<StripeCardOutcome> {
  if (!STRIPE_TOKEN.test(token)) throw errors.invalid(M.cardTokenInvalid);
  const port = portOrRefuse();
  const view = await openStripeCardUpdate(db, email, policyId);
  if (view.outcome !== "open") return view;
  const setup = await port.confirmSetup(view.form.intentId, { token, returnUrl: view.form.returnUrl });
  switch (setup.status) {
    case "succeeded":
      await completeCardSetup(db, port, setup.setupIntentId, { actor: { renter: email }, policyId });
      return { outcome: "saved" };
    case "requires_action":
      return { outcome: "requires_action", redirectUrl: setup.redirectUrl };
    case "processing":
      return { outcome: "processing" };
    default:
      return { outcome: "declined", message: setup.lastError?.message ?? M.cardDeclined };
  }
}

/**
 * The return from the bank (`?setup_intent=seti_…` on the card page): retrieved, never believed;
 * a SetupIntent of another policy changes nothing (`completeCardSetup` checks its metadata).
 */
export async function cardUpdateReturn(db: Db, email: string, policyId: number, setupIntentId: string): Promise<"saved" | "not_saved" | "ignored"> {
  const port = portOrRefuse();
  const id = await renterPolicyId(db, email, policyId);
  if (!SETUP.test(setupIntentId)) return "ignored";
  const { outcome } = await completeCardSetup(db, port, setupIntentId, { actor: { renter: email }, policyId: id });
  if (outcome === "not_ours") return "ignored";
  return outcome === "not_succeeded" ? "not_saved" : "saved";
}
