import type Stripe from "stripe";
import { getConfig } from "../../../server/config";
import type { Db } from "../../../server/db/client";
import { applyRecordedIntent } from "../apply-intent";
import { completeCardSetup } from "../card-setup";
import { cardSetupFor } from "../card-setup-for";
import { paymentPortFor } from "../port-for";
import { paymentByIntent } from "../recorder";
import type { StripeEventHandler } from "./event-handler";

/**
 * `payment_intent.succeeded` and `payment_intent.payment_failed` (decisions §18 Stripe's webhooks):
 * the intent is retrieved again and its state applied, so a late or repeated event, or one arriving
 * before the renter's return, does the same as the return would: an application or a delinquency
 * paid on-session is paid once, any other recorded payment gets its outcome written (`applyRecordedIntent`). An intent we never
 * recorded (another integration on the same Stripe account) is ignored.
 */
async function onPaymentIntent(db: Db, event: Stripe.Event): Promise<void> {
  const port = paymentPortFor(getConfig());
  const intent = event.data.object as Stripe.PaymentIntent;
  if (!port || !intent?.id) return;
  const row = await paymentByIntent(db, intent.id);
  if (!row) return;
  await applyRecordedIntent(db, port, row);
}

/**
 * `setup_intent.succeeded`: a card saved without a payment for a monthly policy (`card-setup.ts`).
 * Retrieved again and applied once; one made elsewhere (Stripe's dashboard) names no policy of ours
 * and changes nothing.
 */
async function onSetupIntent(db: Db, event: Stripe.Event): Promise<void> {
  const port = cardSetupFor(getConfig());
  const setup = event.data.object as Stripe.SetupIntent;
  if (!port || !setup?.id) return;
  await completeCardSetup(db, port, setup.id);
}

export const paymentIntentHandlers: Record<string, StripeEventHandler> = {
  "payment_intent.succeeded": onPaymentIntent,
  "payment_intent.payment_failed": onPaymentIntent,
  "payment_intent.processing": onPaymentIntent,
  "payment_intent.canceled": onPaymentIntent,
  "setup_intent.succeeded": onSetupIntent,
};
