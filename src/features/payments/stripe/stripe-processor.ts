import type Stripe from "stripe";
import { errors } from "../../../server/errors";
import { logger } from "../../../server/log";
import type { CardBrand } from "../card";
import { PAYMENT_MESSAGES } from "../messages";
import type { Decline, IntentRequest, MethodDetails, OpenIntent, PaymentOutcome, PaymentPort, SavedMethod } from "../port";
import { isStripeCardError, isStripeError, type StripeSettings, stripeClient } from "./stripe-sdk";

const BRANDS: readonly CardBrand[] = ["visa", "mastercard", "amex", "discover"];
const brandOf = (brand: string | undefined): CardBrand => (BRANDS.includes(brand as CardBrand) ? (brand as CardBrand) : "other");

/** Stripe's messages are written for the renter (`error.message` of a `card_error`); ours when absent. */
function declineOf(error: { code?: string | null; decline_code?: string | null; message?: string | null } | null | undefined): Decline | null {
  if (!error) return null;
  return { code: error.code ?? "card_declined", message: error.message ?? PAYMENT_MESSAGES.declined };
}

/**
 * The Stripe adapter of the payment port (decisions §18): PaymentIntents confirmed with a token the
 * browser made (Payment Element's ConfirmationToken, or a PaymentMethod id), a Customer per renter
 * and off-session charges for monthly premiums. Every create sends an `Idempotency-Key` from our
 * record; Stripe keeps keys about 24 hours, so callers record the intent's id and retrieve it
 * rather than create again (`recorder.ts`). Nothing of a card but brand, last four and expiry is read.
 */
export class StripeProcessor implements PaymentPort {
  readonly name = "stripe";
  readonly #stripe: () => Promise<Stripe>;

  constructor(settings: StripeSettings) {
    this.#stripe = stripeClient(settings);
  }

  async createCustomer(request: { idempotencyKey: string; email: string; name: string; metadata: Record<string, string> }) {
    const customer = await this.#call(async () =>
      (await this.#stripe()).customers.create(
        { email: request.email, name: request.name, metadata: request.metadata },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return { customerId: customer.id };
  }

  async createIntent(request: IntentRequest): Promise<OpenIntent> {
    const intent = await this.#call(async () =>
      (await this.#stripe()).paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency,
          description: request.description,
          metadata: cleanMetadata(request.metadata),
          // Cards only: a premium is due now, and bank debits would leave it `processing` for days.
          allowed_payment_method_types: ["card"],
          ...(request.customer ? { customer: request.customer } : {}),
          ...(request.saveForCustomer ? { customer: request.saveForCustomer, setup_future_usage: "off_session" as const } : {}),
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return { intentId: intent.id, clientSecret: intent.client_secret, outcome: await this.#outcomeOf(intent) };
  }

  async retrieveIntent(intentId: string): Promise<OpenIntent> {
    const intent = await this.#call(async () => (await this.#stripe()).paymentIntents.retrieve(intentId));
    return { intentId: intent.id, clientSecret: intent.client_secret, outcome: await this.#outcomeOf(intent) };
  }

  async confirmIntent(intentId: string, confirmation: { token: string; returnUrl: string }): Promise<PaymentOutcome> {
    const source = confirmation.token.startsWith("ctoken_") ? { confirmation_token: confirmation.token } : { payment_method: confirmation.token };
    try {
      const intent = await (await this.#stripe()).paymentIntents.confirm(intentId, { ...source, return_url: confirmation.returnUrl });
      return this.#outcomeOf(intent);
    } catch (error) {
      return this.#declinedOrThrow(error, intentId);
    }
  }

  async confirmOffSession(intentId: string, method: SavedMethod): Promise<PaymentOutcome> {
    try {
      const intent = await (await this.#stripe()).paymentIntents.confirm(intentId, { payment_method: method.processorMethodId, off_session: true });
      return this.#outcomeOf(intent);
    } catch (error) {
      return this.#declinedOrThrow(error, intentId);
    }
  }

  /** A card error is an outcome (with the intent Stripe returns in it); anything else is thrown as `unavailable`. */
  async #declinedOrThrow(error: unknown, intentId: string | null): Promise<PaymentOutcome> {
    if (isStripeCardError(error)) {
      const intent = error.payment_intent;
      const decline = declineOf(error) as Decline;
      if (intent) {
        const outcome = await this.#outcomeOf(intent);
        if (outcome.status === "succeeded") return outcome;
        return { status: "declined", intentId: intent.id, amountCents: intent.amount, decline };
      }
      if (intentId) return { status: "declined", intentId, amountCents: 0, decline };
    }
    throw this.#wrap(error);
  }

  async #outcomeOf(intent: Stripe.PaymentIntent): Promise<PaymentOutcome> {
    const base = { intentId: intent.id, amountCents: intent.amount };
    switch (intent.status) {
      case "succeeded":
        return { status: "succeeded", ...base, method: await this.#methodOf(intent) };
      case "processing":
        return { status: "processing", ...base };
      case "requires_action":
        return { status: "requires_action", ...base, redirectUrl: intent.next_action?.redirect_to_url?.url ?? null };
      case "canceled":
        return { status: "canceled", ...base };
      default:
        return { status: "requires_payment_method", ...base, lastDecline: declineOf(intent.last_payment_error) };
    }
  }

  async #methodOf(intent: Stripe.PaymentIntent): Promise<MethodDetails | null> {
    const reference = intent.payment_method;
    if (!reference) return null;
    const method = typeof reference === "string" ? await this.#call(async () => (await this.#stripe()).paymentMethods.retrieve(reference)) : reference;
    if (!method.card) return null;
    const customer = typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? null);
    return {
      processorMethodId: method.id,
      // Kept for off-session charges only when the payment asked Stripe to save it on the customer.
      customerId: intent.setup_future_usage ? customer : null,
      last4: method.card.last4,
      brand: brandOf(method.card.brand),
      expMonth: method.card.exp_month,
      expYear: method.card.exp_year,
    };
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.#wrap(error);
    }
  }

  /**
   * Stripe unreachable, or refusing what we sent: `unavailable` (the pay step says to try again, a
   * billing row stays pending). Only Stripe's type, code and request id are logged, never the key.
   */
  #wrap(error: unknown) {
    if (isStripeError(error)) {
      logger().error({ stripeType: error.type, code: error.code, requestId: error.requestId, status: error.statusCode }, "stripe request failed");
      if (error.type === "StripeInvalidRequestError" && error.statusCode === 404) return errors.notFound(PAYMENT_MESSAGES.intentNotFound);
      return errors.unavailable(PAYMENT_MESSAGES.processorUnavailable);
    }
    return error;
  }
}

/** Stripe's metadata takes strings only; undefined labels are left out. */
function cleanMetadata(metadata: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
