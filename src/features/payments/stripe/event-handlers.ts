import type Stripe from "stripe";
import type { Db } from "../../../server/db/client";
import { paymentIntentHandlers } from "./payment-intent-events";

/**
 * What each Stripe event type does here (decisions §18 Stripe's webhooks), run by the
 * `stripe_event__handle` job once per event id. A handler is given the event as signed; it must
 * decide from the object's state (retrieved again when order matters), never from the arrival
 * order, since Stripe sends events in no guaranteed order and may send one twice. Types absent
 * here are answered 200 and ignored. Each group lives beside what it changes; add a group here.
 */
export type StripeEventHandler = (db: Db, event: Stripe.Event) => Promise<void>;

export const STRIPE_EVENT_HANDLERS: Readonly<Record<string, StripeEventHandler>> = {
  ...paymentIntentHandlers,
};

export function stripeEventHandled(type: string): boolean {
  return Object.hasOwn(STRIPE_EVENT_HANDLERS, type);
}
