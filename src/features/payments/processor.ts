import { errors, type FieldErrors } from "../../server/errors";
import type { CardBrand, CardInput } from "./card";
import { PAYMENT_MESSAGES } from "./messages";

/**
 * The payment processor interface (decisions §10: payments go through a processor interface; §11:
 * monthly billing charges stored methods through the same one). Staging uses the simulated processor,
 * production refuses until a real one is configured (`processorFor`).
 */

/** Free-form labels kept with a charge; `subject` (`policy:<number>`, `application:<pa_id>`) is what is paid for. */
export type ChargeMetadata = { subject?: string } & Record<string, string | undefined>;

type ChargeBase = {
  /** One key per payment attempt: the same key answers the first result and never charges twice. */
  idempotencyKey: string;
  amountCents: number;
  currency: "usd";
  description: string;
  metadata?: ChargeMetadata;
};

/** Exactly one source: a card typed now, or a method stored earlier with `storeMethod`. */
export type ChargeRequest = ChargeBase & ({ card: CardInput; methodId?: undefined } | { methodId: string; card?: undefined });

export type ChargeSucceeded = { status: "succeeded"; chargeId: string; last4: string; brand: CardBrand };
/** `message` is for the renter; `code` is what callers branch on (`DECLINE_CODES`). */
export type ChargeDeclined = { status: "declined"; chargeId: string; code: string; message: string; last4: string; brand: CardBrand };
export type ChargeResult = ChargeSucceeded | ChargeDeclined;

/** A card kept by the processor: our reference and what may be shown, never the number. */
export type StoredMethod = { methodId: string; last4: string; brand: CardBrand; expMonth: number; expYear: number };

export interface PaymentProcessor {
  /** `simulated`, `none`, later the real processor's name; recorded with every charge. */
  readonly name: string;
  /**
   * Charges once per idempotency key. A decline is a result, not an error; invalid input throws a 422
   * (`invalid`, card field errors keyed like `CardInput`), a processor that cannot take payment a 503.
   */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Keeps a card for later charges. A card the processor refuses throws a 422 on `number`. */
  storeMethod(card: CardInput): Promise<StoredMethod>;
}

/** Largest amount the `integer` column and any renter payment need. */
const MAX_AMOUNT_CENTS = 2_147_483_647;

/** The charge's own fields, checked before any card: mistakes of the calling code, not the renter's. */
export function checkChargeRequest(request: ChargeRequest): void {
  const fields: FieldErrors = {};
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0 || request.amountCents > MAX_AMOUNT_CENTS) {
    fields.amountCents = [PAYMENT_MESSAGES.amount];
  }
  if (request.currency !== "usd") fields.currency = [PAYMENT_MESSAGES.currency];
  const key = request.idempotencyKey;
  if (typeof key !== "string" || key.length === 0 || key.length > 200) fields.idempotencyKey = [PAYMENT_MESSAGES.idempotencyKey];
  if ((request.card === undefined) === (request.methodId === undefined)) fields.card = [PAYMENT_MESSAGES.paymentSource];
  const subject = request.metadata?.subject;
  if (subject !== undefined && subject.trim() === "") fields.subject = [PAYMENT_MESSAGES.subjectBlank];
  if (Object.keys(fields).length) throw errors.invalidFields(PAYMENT_MESSAGES.chargeInvalid, fields);
}
