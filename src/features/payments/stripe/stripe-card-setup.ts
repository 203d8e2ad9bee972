import type Stripe from "stripe";
import { errors } from "../../../server/errors";
import { logger } from "../../../server/log";
import type { CardBrand } from "../card";
import type { CardSetup, CardSetupPort } from "../card-setup-port";
import { PAYMENT_MESSAGES } from "../messages";
import { isStripeCardError, isStripeError, type StripeSettings, stripeClient } from "./stripe-sdk";

const BRANDS: readonly CardBrand[] = ["visa", "mastercard", "amex", "discover"];
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

/**
 * A card saved on the renter's Customer without a payment (decisions §18; Stripe's SetupIntents with
 * `usage: off_session`), for a monthly policy's next charges. The browser confirms it with Stripe.js;
 * the server only creates it (with our `Idempotency-Key`) and retrieves it, so `setup_intent.succeeded`
 * and the browser's return read Stripe's state, never the browser's word.
 */
export class StripeCardSetup implements CardSetupPort {
  readonly name = "stripe";
  readonly #stripe: () => Promise<Stripe>;

  constructor(settings: StripeSettings) {
    this.#stripe = stripeClient(settings);
  }

  async createSetup(request: { idempotencyKey: string; customerId: string; metadata: Record<string, string> }): Promise<CardSetup> {
    const setup = await this.#call(async () =>
      (await this.#stripe()).setupIntents.create(
        { customer: request.customerId, usage: "off_session", allowed_payment_method_types: ["card"], metadata: request.metadata },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return this.#setupOf(setup);
  }

  async retrieveSetup(setupIntentId: string): Promise<CardSetup> {
    return this.#setupOf(await this.#call(async () => (await this.#stripe()).setupIntents.retrieve(setupIntentId)));
  }

  async confirmSetup(setupIntentId: string, confirmation: { token: string; returnUrl: string }): Promise<CardSetup> {
    const source = confirmation.token.startsWith("ctoken_") ? { confirmation_token: confirmation.token } : { payment_method: confirmation.token };
    try {
      return this.#setupOf(await (await this.#stripe()).setupIntents.confirm(setupIntentId, { ...source, return_url: confirmation.returnUrl }));
    } catch (error) {
      // A card error carries the SetupIntent as it now is: the refusal is the renter's to read, not ours to throw.
      const refused = isStripeCardError(error) ? error.raw : undefined;
      const setup = (refused as { setup_intent?: Stripe.SetupIntent } | undefined)?.setup_intent;
      if (!setup) this.#fail(error);
      const found = await this.#setupOf(setup);
      const declined = error as Stripe.errors.StripeError;
      return { ...found, lastError: { code: declined.code ?? "card_declined", message: declined.message || PAYMENT_MESSAGES.declined } };
    }
  }

  async #setupOf(setup: Stripe.SetupIntent): Promise<CardSetup> {
    const methodId = idOf(setup.payment_method);
    const customerId = idOf(setup.customer);
    let method: CardSetup["method"] = null;
    if (setup.status === "succeeded" && methodId) {
      const found = await this.#call(async () => (await this.#stripe()).paymentMethods.retrieve(methodId));
      if (found.card)
        method = {
          processorMethodId: found.id,
          customerId,
          last4: found.card.last4,
          brand: BRANDS.includes(found.card.brand as CardBrand) ? (found.card.brand as CardBrand) : "other",
          expMonth: found.card.exp_month,
          expYear: found.card.exp_year,
        };
    }
    const lastError = setup.last_setup_error
      ? { code: setup.last_setup_error.code ?? "card_declined", message: setup.last_setup_error.message ?? PAYMENT_MESSAGES.declined }
      : null;
    return {
      setupIntentId: setup.id,
      clientSecret: setup.client_secret,
      status: setup.status,
      customerId,
      metadata: setup.metadata ?? {},
      method,
      redirectUrl: setup.status === "requires_action" ? (setup.next_action?.redirect_to_url?.url ?? null) : null,
      lastError: setup.status === "requires_payment_method" ? lastError : null,
    };
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Stripe unreachable or refusing what we sent: `unavailable` (404: not found); only Stripe's type, code and request id are logged. */
  #fail(error: unknown): never {
    if (!isStripeError(error)) throw error;
    logger().error({ stripeType: error.type, code: error.code, requestId: error.requestId, status: error.statusCode }, "stripe setup request failed");
    if (error.statusCode === 404) throw errors.notFound(PAYMENT_MESSAGES.intentNotFound);
    throw errors.unavailable(PAYMENT_MESSAGES.processorUnavailable);
  }
}
