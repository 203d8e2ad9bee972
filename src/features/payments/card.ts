import { inspect } from "node:util";
import { errors, type FieldErrors } from "../../server/errors";
import { PAYMENT_MESSAGES } from "./messages";

/**
 * Card input checks (decisions §10, Payment step). Pure: the flow runs them to show errors beside the
 * fields, and every processor runs them again before charging. Messages never contain what was typed.
 */
export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "other";

/** What the renter typed, as the form sends it (`cc-number`, `cc-exp`, `cc-csc`, `postal-code`). */
export type CardInput = { number: string; expiry: string; cvc: string; postalCode: string };

/** Field names of the errors: the keys of `CardInput`. */
export type CardField = keyof CardInput;

/** Expiry more than this many years ahead is a typing mistake, not a card. */
const MAX_YEARS_AHEAD = 20;

/** Luhn (ISO/IEC 7812-1) over a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand by the issuer prefixes the networks publish (IIN ranges). */
export function detectBrand(digits: string): CardBrand {
  if (/^3[47]/.test(digits)) return "amex";
  if (/^4/.test(digits)) return "visa";
  if (/^5[1-5]/.test(digits)) return "mastercard";
  const four = Number(digits.slice(0, 4));
  if (four >= 2221 && four <= 2720) return "mastercard";
  if (/^(6011|64[4-9]|65)/.test(digits)) return "discover";
  const six = Number(digits.slice(0, 6));
  if (six >= 622126 && six <= 622925) return "discover";
  return "other";
}

/** Spaces and dashes removed; `undefined` when anything else than digits, spaces and dashes was typed. */
export function cardDigits(number: string): string | undefined {
  const trimmed = number.trim();
  if (!/^[\d -]*$/.test(trimmed)) return undefined;
  return trimmed.replace(/[ -]/g, "");
}

function numberErrors(number: string): string[] {
  if (number.trim() === "") return [PAYMENT_MESSAGES.numberBlank];
  const digits = cardDigits(number);
  if (digits === undefined) return [PAYMENT_MESSAGES.numberCharacters];
  if (digits.length < 12 || digits.length > 19) return [PAYMENT_MESSAGES.numberLength];
  if (!luhnValid(digits)) return [PAYMENT_MESSAGES.numberChecksum];
  return [];
}

export type Expiry = { month: number; year: number };

/**
 * `MM/YY` or `MM/YYYY` (a one-digit month and spaces around the slash, as browsers fill `cc-exp`, are
 * accepted). A card is valid through the last day of its expiry month; the month is taken twelve hours
 * behind `now` in UTC so a card still valid anywhere in the United States is not refused at midnight UTC.
 */
export function parseExpiry(text: string, now: Date): Expiry | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { error: PAYMENT_MESSAGES.expiryBlank };
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(trimmed);
  if (!match) return { error: PAYMENT_MESSAGES.expiryFormat };
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return { error: PAYMENT_MESSAGES.expiryMonth };
  const behind = new Date(now.getTime() - 12 * 3600_000);
  const current = behind.getUTCFullYear() * 12 + behind.getUTCMonth();
  const expiring = year * 12 + (month - 1);
  if (expiring < current) return { error: PAYMENT_MESSAGES.expiryPast };
  if (expiring > current + MAX_YEARS_AHEAD * 12) return { error: PAYMENT_MESSAGES.expiryTooFar };
  return { month, year };
}

/** American Express prints 4 digits; the other known networks 3; an unknown brand 3 or 4. */
function cvcErrors(cvc: string, brand: CardBrand | undefined): string[] {
  const trimmed = cvc.trim();
  if (trimmed === "") return [PAYMENT_MESSAGES.cvcBlank];
  if (brand === "amex") return /^\d{4}$/.test(trimmed) ? [] : [PAYMENT_MESSAGES.cvcFour];
  if (brand === undefined || brand === "other") return /^\d{3,4}$/.test(trimmed) ? [] : [PAYMENT_MESSAGES.cvcThreeOrFour];
  return /^\d{3}$/.test(trimmed) ? [] : [PAYMENT_MESSAGES.cvcThree];
}

/** US ZIP (`12345`) or ZIP+4 (`12345-6789`, the dash may be left out). */
export function normalizePostalCode(text: string): string | undefined {
  const match = /^(\d{5})(?:-?(\d{4}))?$/.exec(text.trim());
  if (!match) return undefined;
  return match[2] ? `${match[1]}-${match[2]}` : match[1];
}

/**
 * A card that passed every check. The number and security code stay in memory only, for the processor
 * to send on: serializing or inspecting it (a log line, an error body) shows last4 and brand, never them.
 */
export class ValidCard {
  readonly last4: string;
  readonly brand: CardBrand;
  readonly expMonth: number;
  readonly expYear: number;
  readonly postalCode: string;
  readonly #number: string;
  readonly #cvc: string;

  constructor(fields: { number: string; cvc: string; brand: CardBrand; expMonth: number; expYear: number; postalCode: string }) {
    this.#number = fields.number;
    this.#cvc = fields.cvc;
    this.last4 = fields.number.slice(-4);
    this.brand = fields.brand;
    this.expMonth = fields.expMonth;
    this.expYear = fields.expYear;
    this.postalCode = fields.postalCode;
  }

  /** The digits, for a processor to send to its network; never to store or log. */
  revealNumber(): string {
    return this.#number;
  }

  revealCvc(): string {
    return this.#cvc;
  }

  toJSON() {
    return { last4: this.last4, brand: this.brand, expMonth: this.expMonth, expYear: this.expYear };
  }

  [inspect.custom]() {
    return `ValidCard ${JSON.stringify(this.toJSON())}`;
  }
}

/** Every field checked at once, so the renter sees all problems together. */
export function checkCard(input: CardInput, now: Date): { card: ValidCard; errors?: undefined } | { card?: undefined; errors: FieldErrors } {
  const fieldErrors: FieldErrors = {};
  const numberProblems = numberErrors(input.number);
  if (numberProblems.length) fieldErrors.number = numberProblems;
  const typed = cardDigits(input.number);
  const digits = numberProblems.length ? undefined : typed;
  // The brand of what was typed, even with a typo, picks the security code's length.
  const brand = typed ? detectBrand(typed) : undefined;
  const expiry = parseExpiry(input.expiry, now);
  if ("error" in expiry) fieldErrors.expiry = [expiry.error];
  const cvcProblems = cvcErrors(input.cvc, brand);
  if (cvcProblems.length) fieldErrors.cvc = cvcProblems;
  const postalCode = normalizePostalCode(input.postalCode);
  if (postalCode === undefined) fieldErrors.postalCode = [PAYMENT_MESSAGES.postalCode];
  if (Object.keys(fieldErrors).length || !digits || !brand || "error" in expiry || postalCode === undefined) {
    return { errors: fieldErrors };
  }
  return {
    card: new ValidCard({ number: digits, cvc: input.cvc.trim(), brand, expMonth: expiry.month, expYear: expiry.year, postalCode }),
  };
}

/** `checkCard`, throwing the one error model's 422 with field errors (`errors.invalidFields`). */
export function validateCard(input: CardInput, now: Date): ValidCard {
  const checked = checkCard(input, now);
  if (checked.errors) throw errors.invalidFields(PAYMENT_MESSAGES.cardInvalid, checked.errors);
  return checked.card;
}
