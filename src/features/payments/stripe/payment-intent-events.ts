import type { StripeEventHandler } from "./event-handlers";

/** Filled by the PaymentIntent outcomes (next commit). */
export const paymentIntentHandlers: Record<string, StripeEventHandler> = {};
