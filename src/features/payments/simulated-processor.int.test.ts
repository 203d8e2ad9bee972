import { randomUUID } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig, resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { AppError } from "../../server/errors";
import type { CardInput } from "./card";
import { DECLINE_CODES, PAYMENT_MESSAGES } from "./messages";
import { paymentCharges, paymentMethods } from "./payments.table";
import type { ChargeRequest } from "./processor";
import { failNextCharge, processorFor } from "./processor-for";
import { SimulatedProcessor } from "./simulated-processor";

const now = () => new Date("2026-11-24T10:00:00Z");
const processor = new SimulatedProcessor({ now });
/** Every number and code typed in this file: none may end up in the database. */
const typed = { numbers: new Set<string>(), cvcs: new Set<string>() };

function card(number: string, cvc = "739"): CardInput {
  typed.numbers.add(number.replace(/\D/g, ""));
  typed.cvcs.add(cvc);
  return { number, expiry: "12/30", cvc, postalCode: "94107" };
}

function request(overrides: Partial<ChargeRequest> & { card?: CardInput; methodId?: string } = {}): ChargeRequest {
  const source = overrides.methodId ? { methodId: overrides.methodId } : { card: overrides.card ?? card("4242 4242 4242 4242") };
  return {
    idempotencyKey: `key-${randomUUID()}`,
    amountCents: 12_345,
    currency: "usd",
    description: "Security deposit insurance, upfront",
    metadata: { subject: `application:pa_${randomUUID()}` },
    ...overrides,
    ...source,
  } as ChargeRequest;
}

async function chargesOf(idempotencyKey: string) {
  return (await getDb()).select().from(paymentCharges).where(eq(paymentCharges.idempotencyKey, idempotencyKey));
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("simulated processor: magic cards (decisions §10)", () => {
  it("4242 4242 4242 4242 pays and the attempt is recorded", async () => {
    const charge = request();
    const result = await processor.charge(charge);
    expect(result).toEqual({ status: "succeeded", chargeId: expect.stringMatching(/^ch_/), last4: "4242", brand: "visa" });
    const [row] = await chargesOf(charge.idempotencyKey);
    expect(row).toMatchObject({
      id: result.chargeId,
      amountCents: 12_345,
      currency: "usd",
      status: "succeeded",
      declineCode: null,
      last4: "4242",
      brand: "visa",
      methodId: null,
      subject: charge.metadata?.subject,
      processor: "simulated",
    });
  });

  it("4000 0000 0000 0002 is declined with a renter-friendly message, recorded; a good card then pays", async () => {
    const subject = `application:pa_${randomUUID()}`;
    const declined = request({ card: card("4000 0000 0000 0002"), metadata: { subject } });
    const result = await processor.charge(declined);
    expect(result).toEqual({
      status: "declined",
      chargeId: expect.stringMatching(/^ch_/),
      code: DECLINE_CODES.cardDeclined,
      message: PAYMENT_MESSAGES.declined,
      last4: "0002",
      brand: "visa",
    });
    expect((await chargesOf(declined.idempotencyKey))[0]).toMatchObject({ status: "declined", declineCode: "card_declined", last4: "0002" });
    const retry = await processor.charge(request({ metadata: { subject } }));
    expect(retry.status).toBe("succeeded");
  });

  it.each([
    ["3782 822463 10005", "4821", "amex", "0005"],
    ["5555-5555-5555-4444", "739", "mastercard", "4444"],
    ["6011 1111 1111 1117", "739", "discover", "1117"],
    ["4000 0566 5566 5556", "739", "visa", "5556"],
    ["1000 0000 0008", "739", "other", "0008"],
  ])("any other Luhn-valid number pays: %s", async (number, cvc, brand, last4) => {
    const result = await processor.charge(request({ card: card(number, cvc) }));
    expect(result).toMatchObject({ status: "succeeded", brand, last4 });
  });
});

describe("invalid input answers 422 and records nothing", () => {
  it("card fields", async () => {
    const charge = request({ card: { number: "4242 4242 4242 4241", expiry: "10/26", cvc: "12", postalCode: "9410" } });
    const error = await failure(processor.charge(charge));
    expect(error).toMatchObject({ kind: "invalid", status: 422, message: PAYMENT_MESSAGES.cardInvalid });
    expect(error.fields).toEqual({
      number: [PAYMENT_MESSAGES.numberChecksum],
      expiry: [PAYMENT_MESSAGES.expiryPast],
      cvc: [PAYMENT_MESSAGES.cvcThree],
      postalCode: [PAYMENT_MESSAGES.postalCode],
    });
    expect(await chargesOf(charge.idempotencyKey)).toEqual([]);
  });

  it("the charge's own fields", async () => {
    const both = { ...request(), methodId: "pm_x" } as unknown as ChargeRequest;
    const error = await failure(processor.charge({ ...both, amountCents: 0, idempotencyKey: "" }));
    expect(error).toMatchObject({ kind: "invalid", message: PAYMENT_MESSAGES.chargeInvalid });
    expect(error.fields).toEqual({
      amountCents: [PAYMENT_MESSAGES.amount],
      idempotencyKey: [PAYMENT_MESSAGES.idempotencyKey],
      card: [PAYMENT_MESSAGES.paymentSource],
    });
    expect(await failure(processor.charge(request({ amountCents: 10.5 })))).toMatchObject({ fields: { amountCents: [PAYMENT_MESSAGES.amount] } });
  });
});

describe("idempotency: a retried job never charges twice", () => {
  it("the same key answers the first result without a second record, also for a decline", async () => {
    for (const number of ["4242424242424242", "4000000000000002"]) {
      const charge = request({ card: card(number) });
      const first = await processor.charge(charge);
      // Even a retry that types a good card gets the first answer: the key is one attempt.
      const again = await processor.charge({ ...charge, card: card("4242424242424242"), methodId: undefined });
      expect(again).toEqual(first);
      expect(await chargesOf(charge.idempotencyKey)).toHaveLength(1);
    }
  });

  it("concurrent calls with one key record one charge and all answer it", async () => {
    const charge = request();
    const results = await Promise.all(Array.from({ length: 12 }, () => new SimulatedProcessor({ now }).charge(charge)));
    expect(new Set(results.map((r) => r.chargeId)).size).toBe(1);
    expect(results.every((r) => r.status === "succeeded")).toBe(true);
    expect(await chargesOf(charge.idempotencyKey)).toHaveLength(1);
  });

  it("the same key for another amount or subject is a conflict, never charged", async () => {
    const charge = request();
    await processor.charge(charge);
    expect(await failure(processor.charge({ ...charge, amountCents: 999 }))).toMatchObject({ kind: "conflict", message: PAYMENT_MESSAGES.idempotencyMismatch });
    expect(await failure(processor.charge({ ...charge, metadata: { subject: "policy:OTHER" } }))).toMatchObject({ kind: "conflict" });
    expect(await chargesOf(charge.idempotencyKey)).toHaveLength(1);
  });
});

describe("fail-next (decisions §11, billing fail-next)", () => {
  it("declines the subject's next charge once, then charges succeed; other subjects are untouched", async () => {
    const subject = `policy:RP-${randomUUID()}`;
    await failNextCharge(processor, subject);
    await failNextCharge(processor, subject); // arming twice is still once
    expect((await processor.charge(request({ metadata: { subject: `policy:RP-${randomUUID()}` } }))).status).toBe("succeeded");
    const first = await processor.charge(request({ metadata: { subject } }));
    expect(first).toMatchObject({ status: "declined", code: DECLINE_CODES.cardDeclined, message: PAYMENT_MESSAGES.declined });
    expect((await processor.charge(request({ metadata: { subject } }))).status).toBe("succeeded");
  });

  it("concurrent charges of an armed subject: exactly one declines", async () => {
    const subject = `policy:RP-${randomUUID()}`;
    await processor.failNext(subject);
    const results = await Promise.all(Array.from({ length: 8 }, () => processor.charge(request({ metadata: { subject } }))));
    expect(results.filter((r) => r.status === "declined")).toHaveLength(1);
  });

  it("concurrent retries of one key consume the flag once and all answer the decline", async () => {
    const subject = `policy:RP-${randomUUID()}`;
    await processor.failNext(subject);
    const charge = request({ metadata: { subject } });
    const results = await Promise.all(Array.from({ length: 8 }, () => processor.charge(charge)));
    expect(new Set(results.map((r) => `${r.chargeId}/${r.status}`))).toEqual(new Set([`${results[0].chargeId}/declined`]));
    expect((await processor.charge(request({ metadata: { subject } }))).status).toBe("succeeded");
  });
});

describe("stored methods (decisions §11, monthly billing)", () => {
  it("keeps last4, brand and expiry with a random token, and charges it later", async () => {
    const stored = await processor.storeMethod(card("5555 5555 5555 4444"));
    expect(stored).toEqual({ methodId: expect.stringMatching(/^pm_/), last4: "4444", brand: "mastercard", expMonth: 12, expYear: 2030 });
    const [row] = await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.id, stored.methodId));
    expect(row).toMatchObject({ processor: "simulated", last4: "4444", brand: "mastercard", expMonth: 12, expYear: 2030 });
    expect(row.token).toMatch(/^simtok_[\w-]{32}$/);

    const subject = `policy:RP-${randomUUID()}`;
    const charge = request({ methodId: stored.methodId, metadata: { subject } });
    expect(await processor.charge(charge)).toMatchObject({ status: "succeeded", last4: "4444", brand: "mastercard" });
    expect((await chargesOf(charge.idempotencyKey))[0]).toMatchObject({ methodId: stored.methodId, last4: "4444" });

    await processor.failNext(subject);
    expect(await processor.charge(request({ methodId: stored.methodId, metadata: { subject } }))).toMatchObject({ status: "declined", last4: "4444" });
  });

  it("refuses the magic decline card, invalid cards and unknown methods", async () => {
    const declined = await failure(processor.storeMethod(card("4000 0000 0000 0002")));
    expect(declined).toMatchObject({ kind: "invalid", fields: { number: [PAYMENT_MESSAGES.declined] } });
    expect(await failure(processor.storeMethod({ ...card("4242424242424242"), expiry: "13/30" }))).toMatchObject({
      fields: { expiry: [PAYMENT_MESSAGES.expiryMonth] },
    });
    const charge = request({ methodId: "pm_unknown" });
    expect(await failure(processor.charge(charge))).toMatchObject({ kind: "not_found", message: PAYMENT_MESSAGES.methodNotFound });
    expect(await chargesOf(charge.idempotencyKey)).toEqual([]);
  });
});

describe("production refuses payment (decisions §10)", () => {
  afterAll(() => {
    process.env.APP_ENV = "staging";
    delete process.env.PAYMENT_PROCESSOR;
    resetConfig();
  });

  it("with no processor configured, charges and stored methods answer 503 and nothing is recorded", async () => {
    process.env.APP_ENV = "production";
    delete process.env.PAYMENT_PROCESSOR;
    resetConfig();
    const refusing = processorFor(getConfig(), { now });
    expect(refusing.name).toBe("none");
    const charge = request();
    expect(await failure(refusing.charge(charge))).toMatchObject({ kind: "unavailable", status: 503, message: PAYMENT_MESSAGES.notConfigured });
    expect(await failure(refusing.storeMethod(card("4242424242424242")))).toMatchObject({ kind: "unavailable" });
    expect(await chargesOf(charge.idempotencyKey)).toEqual([]);
    expect(await failure(failNextCharge(refusing, "policy:X"))).toMatchObject({ kind: "invalid" });
  });
});

describe("nothing sensitive is stored", () => {
  it("no table of the database holds a full card number or a security code", async () => {
    const db = await getDb();
    const [{ value: charges }] = await db.select({ value: count() }).from(paymentCharges);
    expect(charges).toBeGreaterThan(10);
    const tables = await db.execute<{ name: string }>(sql`select quote_ident(table_name) as name from information_schema.tables where table_schema = 'public'`);
    for (const { name } of tables) {
      const rows = await db.execute<{ row: Record<string, unknown> }>(sql.raw(`select row_to_json(t) as row from ${name} t`));
      for (const { row } of rows) {
        const text = JSON.stringify(row);
        for (const number of typed.numbers) expect(text.replace(/[ -]/g, "")).not.toContain(number);
        // A security code is short: no column may hold it as its value.
        for (const value of Object.values(row)) expect(typed.cvcs.has(String(value))).toBe(false);
      }
    }
    const columns = await db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name in ('payment_charges', 'payment_methods', 'payment_fail_next')`,
    );
    expect(columns.map((c) => c.column_name).filter((c) => /number|cvc|cvv|csc|pan/.test(c))).toEqual([]);
  });
});
