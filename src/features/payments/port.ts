import type { CardBrand } from "./card";

/**
 * The payment processor port (decisions §18 "What the current code assumes that Stripe breaks";
 * docs/decisions.md, Payments through Stripe): what the flow, billing and Stripe's webhooks need of a
 * processor, whichever it is. Card data never crosses it: the browser turns the card into a token
 * (Stripe.js's ConfirmationToken or PaymentMethod id; the simulator's own `simtok_…` in staging), and
 * the port takes that token. An outcome is one of four, never a bare boolean: a payment may wait on
 * the renter's bank (`requires_action`, 3-D Secure) or on the network (`processing`), and the policy
 * is issued only when the processor says `succeeded` (by the return to the flow or its webhook).
 */

/** Free-form labels kept with a payment; `subject` (`policy:<number>`, `application:<pa_id>`) is what is paid for. */
export type PaymentMetadata = { subject?: string } & Record<string, string | undefined>;

/** A card kept by the processor for later charges, as much as may be shown (never the number). */
export type MethodDetails = {
  /** The processor's id of the method (`pm_…`). */
  processorMethodId: string;
  /** The processor's customer it is attached to (`cus_…`), when kept for off-session charges. */
  customerId: string | null;
  last4: string;
  brand: CardBrand;
  expMonth: number;
  expYear: number;
};

/** A method saved for off-session charges, as recorded in `payment_methods`. */
export type SavedMethod = { processorMethodId: string; customerId: string | null };

/** One payment of a record (`pay:<application>`, `bill:<policy>:<period>`), created once per key. */
export type IntentRequest = {
  /** Sent as `Idempotency-Key`, derived from our record (decisions §18). */
  idempotencyKey: string;
  amountCents: number;
  currency: "usd";
  description: string;
  metadata: PaymentMetadata;
  /** Monthly cadence: the method confirmed is kept on this customer for off-session charges. */
  saveForCustomer?: string;
  /** Off-session charges: the customer the saved method belongs to. */
  customer?: string;
};

/** What the processor says of a payment now. `intentId` is the processor's (`pi_…`). */
export type PaymentOutcome =
  | { status: "succeeded"; intentId: string; amountCents: number; method: MethodDetails | null }
  | { status: "processing"; intentId: string; amountCents: number }
  /** The renter's bank asks for authentication: the browser follows `redirectUrl` (or Stripe.js handles it). */
  | { status: "requires_action"; intentId: string; amountCents: number; redirectUrl: string | null }
  /** Nothing paid yet: no method confirmed, or the last one failed (`lastDecline`). */
  | { status: "requires_payment_method"; intentId: string; amountCents: number; lastDecline: Decline | null }
  /** A decline is a result, not an error: `code` is what callers branch on, `message` is for the renter. */
  | { status: "declined"; intentId: string; amountCents: number; decline: Decline }
  | { status: "canceled"; intentId: string; amountCents: number };

export type Decline = { code: string; message: string };
export type OutcomeStatus = PaymentOutcome["status"];

/** An intent as the pay page needs it: the browser confirms it with `clientSecret` (Stripe.js). */
export type OpenIntent = { intentId: string; clientSecret: string | null; outcome: PaymentOutcome };

export interface PaymentPort {
  /** `simulated`, `stripe`, `none`: recorded with every payment row. */
  readonly name: string;
  /** A customer for a renter (monthly cadence), created once per key. */
  createCustomer(request: { idempotencyKey: string; email: string; name: string; metadata: Record<string, string> }): Promise<{ customerId: string }>;
  /** Creates the payment of a record (`Idempotency-Key`); the caller records its id and reuses it afterwards. */
  createIntent(request: IntentRequest): Promise<OpenIntent>;
  /** What the processor says now; the browser is never believed. */
  retrieveIntent(intentId: string): Promise<OpenIntent>;
  /** Confirms with a token the browser made; `returnUrl` is where 3-D Secure comes back to. */
  confirmIntent(intentId: string, confirmation: { token: string; returnUrl: string }): Promise<PaymentOutcome>;
  /**
   * Confirms with a saved method while the renter is away (monthly billing): a decline or
   * `authentication_required` is an outcome. Created first with `createIntent` and its id recorded,
   * so a replay days later confirms that intent again instead of creating a second.
   */
  confirmOffSession(intentId: string, method: SavedMethod): Promise<PaymentOutcome>;
}

/** Decline codes callers branch on (Stripe's own codes, which the simulator answers too). */
export const OUTCOME_CODES = {
  cardDeclined: "card_declined",
  authenticationRequired: "authentication_required",
} as const;
