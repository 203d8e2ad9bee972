import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { AppError } from "../../server/errors";
import { type CardInput, cardDigits, checkCard, detectBrand, luhnValid, normalizePostalCode, parseExpiry, validateCard } from "./card";
import { PAYMENT_MESSAGES as M } from "./messages";

const now = new Date("2026-11-24T10:00:00Z");
const good: CardInput = { number: "4242 4242 4242 4242", expiry: "12/28", cvc: "123", postalCode: "94107" };

describe("luhnValid", () => {
  it.each(["4242424242424242", "4000000000000002", "378282246310005", "6011111111111117", "5555555555554444", "2223003122003222", "79927398713"])(
    "accepts %s",
    (digits) => expect(luhnValid(digits)).toBe(true),
  );
  it.each(["4242424242424241", "79927398710", "1234567812345678", "", "42a2"])("refuses %s", (digits) => expect(luhnValid(digits)).toBe(false));
});

describe("detectBrand", () => {
  it.each([
    ["4242424242424242", "visa"],
    ["5555555555554444", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["2720990000000007", "mastercard"],
    ["2721000000000004", "other"],
    ["378282246310005", "amex"],
    ["341111111111111", "amex"],
    ["6011111111111117", "discover"],
    ["6445644564456445", "discover"],
    ["6500000000000002", "discover"],
    ["6221260000000000", "discover"],
    ["6229260000000000", "other"],
    ["3530111333300000", "other"],
    ["5011111111111111", "other"],
  ] as const)("%s is %s", (digits, brand) => expect(detectBrand(digits)).toBe(brand));
});

describe("card number", () => {
  it("strips spaces and dashes, refuses other characters", () => {
    expect(cardDigits(" 4242-4242 4242 4242 ")).toBe("4242424242424242");
    expect(cardDigits("4242.4242")).toBeUndefined();
  });
  it.each([
    ["", M.numberBlank],
    ["   ", M.numberBlank],
    ["4242 4242 4242 424x", M.numberCharacters],
    ["4242 4242 424", M.numberLength],
    ["4242 4242 4242 4242 4242", M.numberLength],
    ["4242 4242 4242 4241", M.numberChecksum],
  ])("%j → %s", (number, message) => {
    expect(checkCard({ ...good, number }, now).errors?.number).toEqual([message]);
  });
  it("accepts 12 and 19 digits when Luhn-valid", () => {
    expect(checkCard({ ...good, number: "100000000008", cvc: "123" }, now).card?.last4).toBe("0008");
    expect(checkCard({ ...good, number: "4000000000000000006" }, now).card?.brand).toBe("visa");
  });
});

describe("parseExpiry", () => {
  it("reads MM/YY, MM/YYYY, spaces and one-digit months", () => {
    expect(parseExpiry("12/28", now)).toEqual({ month: 12, year: 2028 });
    expect(parseExpiry("03/2031", now)).toEqual({ month: 3, year: 2031 });
    expect(parseExpiry(" 7 / 29 ", now)).toEqual({ month: 7, year: 2029 });
  });
  it.each([
    ["", M.expiryBlank],
    ["1228", M.expiryFormat],
    ["12/2", M.expiryFormat],
    ["12-28", M.expiryFormat],
    ["00/28", M.expiryMonth],
    ["13/28", M.expiryMonth],
    ["10/26", M.expiryPast],
    ["12/25", M.expiryPast],
    ["12/2047", M.expiryTooFar],
  ])("%j → %s", (text, error) => expect(parseExpiry(text, now)).toEqual({ error }));
  it("is valid through the last day of its month", () => {
    expect(parseExpiry("11/26", now)).toEqual({ month: 11, year: 2026 });
    expect(parseExpiry("11/26", new Date("2026-11-30T23:59:00Z"))).toEqual({ month: 11, year: 2026 });
    // Still November 30 in the United States at 01:00 UTC on December 1.
    expect(parseExpiry("11/26", new Date("2026-12-01T01:00:00Z"))).toEqual({ month: 11, year: 2026 });
    expect(parseExpiry("11/26", new Date("2026-12-01T13:00:00Z"))).toEqual({ error: M.expiryPast });
  });
});

describe("security code", () => {
  it.each([
    ["4242424242424242", "123", undefined],
    ["4242424242424242", "1234", M.cvcThree],
    ["4242424242424242", "12", M.cvcThree],
    ["378282246310005", "1234", undefined],
    ["378282246310005", "123", M.cvcFour],
    ["100000000008", "123", undefined],
    ["100000000008", "1234", undefined],
    ["100000000008", "12a", M.cvcThreeOrFour],
    ["4242424242424242", "", M.cvcBlank],
  ])("%s with %j", (number, cvc, message) => {
    expect(checkCard({ ...good, number, cvc }, now).errors?.cvc).toEqual(message ? [message] : undefined);
  });
  it("the brand of a mistyped number still picks the length; no digits at all, 3 or 4", () => {
    expect(checkCard({ ...good, number: "3782 8224 6310 006", cvc: "123" }, now).errors?.cvc).toEqual([M.cvcFour]);
    expect(checkCard({ ...good, number: "", cvc: "12" }, now).errors?.cvc).toEqual([M.cvcThreeOrFour]);
  });
});

describe("postal code", () => {
  it.each([
    ["94107", "94107"],
    [" 94107-1234 ", "94107-1234"],
    ["941071234", "94107-1234"],
    ["9410", undefined],
    ["94107-12", undefined],
    ["SW1A 1AA", undefined],
    ["", undefined],
  ])("%j → %j", (text, zip) => expect(normalizePostalCode(text)).toBe(zip));
});

describe("validateCard", () => {
  it("answers a valid card without exposing number or code", () => {
    const card = validateCard(good, now);
    expect(card).toMatchObject({ last4: "4242", brand: "visa", expMonth: 12, expYear: 2028, postalCode: "94107" });
    expect(card.revealNumber()).toBe("4242424242424242");
    expect(card.revealCvc()).toBe("123");
    const shown = `${JSON.stringify(card)} ${inspect(card)} ${JSON.stringify({ card })}`;
    expect(shown).not.toContain("4242424242424242");
    expect(shown).not.toContain("123");
    expect(Object.keys(card)).not.toContain("number");
  });
  it("throws one invalid error with every field's messages, echoing nothing typed", () => {
    const input = { number: "4242 4242 4242 4241", expiry: "01/20", cvc: "98", postalCode: "abc" };
    let thrown: unknown;
    try {
      validateCard(input, now);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    const error = thrown as AppError;
    expect(error.kind).toBe("invalid");
    expect(error.status).toBe(422);
    expect(error.message).toBe(M.cardInvalid);
    expect(error.fields).toEqual({ number: [M.numberChecksum], expiry: [M.expiryPast], cvc: [M.cvcThree], postalCode: [M.postalCode] });
    expect(JSON.stringify({ message: error.message, fields: error.fields })).not.toContain("4241");
  });
});
