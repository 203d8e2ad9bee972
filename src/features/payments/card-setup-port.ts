import type { MethodDetails } from "./port";

/** A card saved without a payment (`card-setup.ts`): what the processor says of it, and what it must do. */
export type CardSetup = {
  setupIntentId: string;
  clientSecret: string | null;
  /** Stripe's SetupIntent statuses (`requires_payment_method`, `requires_action`, `processing`, `succeeded`, `canceled`). */
  status: string;
  customerId: string | null;
  metadata: Record<string, string>;
  /** The card saved, once `succeeded`. */
  method: MethodDetails | null;
  /** `requires_action`: the bank's page to send the renter to (3-D Secure), which returns to the confirmation's `returnUrl`. */
  redirectUrl: string | null;
  /** The last attempt's refusal, in the processor's words for the renter (`card_declined`, …). */
  lastError: { code: string; message: string } | null;
};

export interface CardSetupPort {
  readonly name: string;
  createSetup(request: { idempotencyKey: string; customerId: string; metadata: Record<string, string> }): Promise<CardSetup>;
  retrieveSetup(setupIntentId: string): Promise<CardSetup>;
  /** Confirms with a token the browser made (a ConfirmationToken); a card refused is an answer (`lastError`), not a throw. */
  confirmSetup(setupIntentId: string, confirmation: { token: string; returnUrl: string }): Promise<CardSetup>;
}
