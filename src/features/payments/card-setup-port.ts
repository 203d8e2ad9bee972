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
};

export interface CardSetupPort {
  readonly name: string;
  createSetup(request: { idempotencyKey: string; customerId: string; metadata: Record<string, string> }): Promise<CardSetup>;
  retrieveSetup(setupIntentId: string): Promise<CardSetup>;
}
