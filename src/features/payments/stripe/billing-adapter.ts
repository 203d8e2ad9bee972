import { and, eq } from "drizzle-orm";
import { type Db, getDb } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import type { CardBrand } from "../card";
import { PAYMENT_MESSAGES } from "../messages";
import { paymentMethods } from "../payments.table";
import { OUTCOME_CODES, type PaymentOutcome, type PaymentPort } from "../port";
import type { ChargeRequest, ChargeResult, PaymentProcessor, StoredMethod } from "../processor";
import { intentFor, recordOutcome } from "../recorder";

/**
 * Monthly billing and settlements through the token-based port (decisions §18 Monthly premiums):
 * the charge interface billing calls (`processor.ts`), answered with off-session PaymentIntents.
 * Per idempotency key: the intent is created once and its id recorded at once (`intentFor`), then
 * confirmed with the saved card; a replay days later (a pending billing row, Stripe having
 * forgotten the key) finds the recorded intent and retrieves it, confirming it only if it was never
 * confirmed. `authentication_required` is a decline whose code billing keeps: the delinquency opens
 * and the renter pays on-session.
 */
export class PortBillingProcessor implements PaymentProcessor {
  readonly name: string;
  readonly #port: PaymentPort;
  readonly #db?: Db;

  constructor(port: PaymentPort, options: { db?: Db } = {}) {
    this.name = port.name;
    this.#port = port;
    this.#db = options.db;
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (!request.methodId) throw errors.invalidFields(PAYMENT_MESSAGES.chargeInvalid, { card: [PAYMENT_MESSAGES.paymentSource] });
    const db = this.#db ?? (await getDb());
    const [method] = await db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, request.methodId), eq(paymentMethods.processor, this.#port.name)));
    if (!method) throw errors.notFound(PAYMENT_MESSAGES.methodNotFound);
    const open = await intentFor(db, this.#port, {
      idempotencyKey: request.idempotencyKey,
      amountCents: request.amountCents,
      currency: request.currency,
      description: request.description,
      metadata: request.metadata ?? {},
      ...(method.customerId ? { customer: method.customerId } : {}),
    });
    if (open.row.amountCents !== request.amountCents) throw errors.conflict(PAYMENT_MESSAGES.idempotencyMismatch);
    let outcome = open.outcome;
    // Never confirmed (no earlier decline on it): confirm now; anything else is the first answer again.
    if ((outcome.status === "requires_payment_method" && !outcome.lastDecline) || outcome.status === "requires_action") {
      outcome = await this.#port.confirmOffSession(open.intentId, { processorMethodId: method.token, customerId: method.customerId });
      await recordOutcome(db, this.#port.name, outcome);
    }
    return resultOf(outcome, { last4: method.last4, brand: method.brand as CardBrand });
  }

  async storeMethod(): Promise<StoredMethod> {
    // decisions §18: card data never reaches this server; a card is saved by the payment that confirms it.
    throw errors.invalid(PAYMENT_MESSAGES.paymentSource);
  }
}

function resultOf(outcome: PaymentOutcome, card: { last4: string; brand: CardBrand }): ChargeResult {
  switch (outcome.status) {
    case "succeeded":
      return { status: "succeeded", chargeId: outcome.intentId, ...card };
    case "declined":
      return { status: "declined", chargeId: outcome.intentId, code: outcome.decline.code, message: outcome.decline.message, ...card };
    case "requires_payment_method":
    case "requires_action":
    case "canceled": {
      const decline = outcome.status === "requires_payment_method" ? outcome.lastDecline : null;
      const code = decline?.code ?? OUTCOME_CODES.authenticationRequired;
      return { status: "declined", chargeId: outcome.intentId, code, message: decline?.message ?? PAYMENT_MESSAGES.declined, ...card };
    }
    case "processing":
      // Not an answer yet: billing keeps its row pending and the next run asks again under the same key.
      throw errors.unavailable(PAYMENT_MESSAGES.paymentProcessing);
  }
}
