import { randomBytes } from "node:crypto";
import { getConfig } from "../../server/config";

/** The account's pages that take a card (`/enroll/account/policies/<id>/pay` and `…/card`). */
const CARD_PAGE = /^\/enroll\/account\/policies\/\d{1,10}\/(?:pay|card)$/;

/**
 * decisions §18: Stripe.js's sources are allowed on Stripe pages only. Besides the enrollment pay step
 * (`pay-step-csp.ts`), those are the account's Pay now and Update card pages when the processor is
 * Stripe: they answer the same directives with a fresh nonce. Any other page: undefined.
 */
export function accountStripePageNonce(pathname: string): string | undefined {
  if (getConfig().paymentProcessor !== "stripe" || !CARD_PAGE.test(pathname)) return undefined;
  return randomBytes(16).toString("base64");
}
