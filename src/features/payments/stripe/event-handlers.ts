import type { StripeEventHandler } from "./event-handler";
import { paymentIntentHandlers } from "./payment-intent-events";
import { refundDisputeHandlers } from "./refund-dispute-events";

/**
 * What each Stripe event type does here (decisions §18 Stripe's webhooks), by type: one group per
 * part of payments (`./event-handler.ts` says what a handler must do). Types absent here are
 * answered 200 and ignored (nothing kept). Add a group with one line.
 */
export const STRIPE_EVENT_HANDLERS: Readonly<Record<string, StripeEventHandler>> = {
  ...paymentIntentHandlers,
  ...refundDisputeHandlers,
};

export function stripeEventHandled(type: string): boolean {
  return Object.hasOwn(STRIPE_EVENT_HANDLERS, type);
}
