import { afterEach, describe, expect, it } from "vitest";
import { getConfig, resetConfig } from "../../server/config";
import { AppError } from "../../server/errors";
import { PAYMENT_MESSAGES } from "./messages";
import { failNextCharge, NotConfiguredProcessor, processorFor } from "./processor-for";
import { SimulatedProcessor } from "./simulated-processor";

const saved = { APP_ENV: process.env.APP_ENV, PAYMENT_PROCESSOR: process.env.PAYMENT_PROCESSOR };

function withEnv(env: { APP_ENV?: string; PAYMENT_PROCESSOR?: string }) {
  for (const key of ["APP_ENV", "PAYMENT_PROCESSOR"] as const) {
    if (env[key] === undefined) delete process.env[key];
    else process.env[key] = env[key];
  }
  resetConfig();
  return getConfig;
}

afterEach(() => withEnv(saved));

describe("PAYMENT_PROCESSOR (decisions §10)", () => {
  it("defaults to simulated in staging; production without Stripe's key refuses every payment (and never starts: startRefusals)", () => {
    expect(withEnv({ APP_ENV: "staging" })().paymentProcessor).toBe("simulated");
    expect(withEnv({})().paymentProcessor).toBe("simulated");
    expect(withEnv({ APP_ENV: "production" })().paymentProcessor).toBe("none");
  });

  it("can be set to none in staging", () => {
    expect(withEnv({ APP_ENV: "staging", PAYMENT_PROCESSOR: "none" })().paymentProcessor).toBe("none");
  });

  it("refuses simulated and none in production, stripe without its keys, and unknown values", () => {
    expect(withEnv({ APP_ENV: "production", PAYMENT_PROCESSOR: "simulated" })).toThrow(/PAYMENT_PROCESSOR=simulated is refused in production/);
    expect(withEnv({ APP_ENV: "production", PAYMENT_PROCESSOR: "none" })).toThrow(/PAYMENT_PROCESSOR=none is refused in production/);
    expect(withEnv({ APP_ENV: "staging", PAYMENT_PROCESSOR: "stripe" })).toThrow(/PAYMENT_PROCESSOR/);
    expect(withEnv({ APP_ENV: "staging", PAYMENT_PROCESSOR: "paypal" })).toThrow(/PAYMENT_PROCESSOR/);
  });
});

describe("processorFor", () => {
  it("picks the simulated processor or the refusing one", () => {
    expect(processorFor({ paymentProcessor: "simulated" })).toBeInstanceOf(SimulatedProcessor);
    expect(processorFor({ paymentProcessor: "none" })).toBeInstanceOf(NotConfiguredProcessor);
    expect(processorFor(withEnv({ APP_ENV: "production" })())).toBeInstanceOf(NotConfiguredProcessor);
  });

  it("the refusing processor throws unavailable (503) with the page's message, for charges and stored methods", async () => {
    const processor = processorFor({ paymentProcessor: "none" });
    const card = { number: "4242424242424242", expiry: "12/30", cvc: "123", postalCode: "94107" };
    for (const attempt of [processor.charge({ idempotencyKey: "k", amountCents: 100, currency: "usd", description: "d", card }), processor.storeMethod(card)]) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ kind: "unavailable", status: 503, message: PAYMENT_MESSAGES.notConfigured });
    }
  });

  it("fail-next is refused without the simulated processor", async () => {
    await expect(failNextCharge(new NotConfiguredProcessor(), "policy:X")).rejects.toMatchObject({
      kind: "invalid",
      message: PAYMENT_MESSAGES.failNextNeedsSimulated,
    });
  });
});
