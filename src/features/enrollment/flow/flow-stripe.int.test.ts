import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, resetConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { webDoorUrl } from "../../../test/http";
import { runDueJobs } from "../../../test/jobs";
import { type StripeTestServer, startStripeServer } from "../../../test/stripe-server";
import { billingCharges, delinquencies } from "../../billing/billing.table";
import { monthOf } from "../../billing/billing-test-helpers";
import { FAILURE_REASONS } from "../../billing/messages";
import { runBilling } from "../../billing/run";
import { paymentsOfPolicy } from "../../payments/console/policy-payments";
import { paymentCharges, paymentCustomers, paymentMethods } from "../../payments/payments.table";
import { processorFor } from "../../payments/processor-for";
import { stripeEvents } from "../../payments/stripe/stripe-events.table";
import { STRIPE_API_VERSION } from "../../payments/stripe/stripe-sdk";
import { policies } from "../../policies/policies.table";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { payStepDirectives, payStepNonce } from "../framing/pay-step-csp";
import type { LinkParams, PayView, ResultView } from "./contract";
import { applicationsOf, DETAILS, okView, renter, viewOf } from "./flow-test-helpers";
import { FLOW_MESSAGES } from "./messages";
import { chooseProduct, payEnrollment, payWithToken, submitDetails } from "./service";
import { flowLinkUrl } from "./stripe-pay";

/**
 * decisions §18 through the door, against the local Stripe-compatible server (src/test/stripe-server.ts)
 * the SDK reaches through `STRIPE_API_BASE`: both cadences, a decline then a success, 3-D Secure
 * there and back, Stripe's webhook before and after the return, replayed and forged webhooks, an
 * off-session decline and `authentication_required`.
 */
const partner = enrollmentPartnersOfThisFile();
let stripe: StripeTestServer;
const saved: Record<string, string | undefined> = {};
const VARIABLES = ["PAYMENT_PROCESSOR", "STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE"] as const;

beforeAll(async () => {
  stripe = await startStripeServer({ webhookUrl: `${await webDoorUrl()}/stripe/webhook` });
  for (const name of VARIABLES) saved[name] = process.env[name];
  Object.assign(process.env, {
    PAYMENT_PROCESSOR: "stripe",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  });
  resetConfig();
});

afterAll(async () => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetConfig();
  await stripe.close();
});

async function atPay(id: string, cadence: "upfront" | "monthly", productType = "security_deposit_insurance") {
  const p = await partner();
  const { prospect, link } = await renter(p, id);
  okView(await submitDetails(link, DETAILS));
  await runDueJobs();
  okView(await chooseProduct(link, { productType, cadence }));
  const pay = (await viewOf(link)) as PayView;
  expect(pay.step).toBe("pay");
  return { p, prospect, link, pay };
}

const policiesOf = async (prospectId: number) => (await getDb()).select().from(policies).where(eq(policies.prospectId, prospectId));
const creates = (path: string) => stripe.requests.filter((r) => r.method === "POST" && r.path === path);
const intentOf = (intentId: string) => stripe.intents.get(intentId)?.object as Record<string, unknown>;

async function deliverLatest(type: string, intentId: string) {
  const event = stripe.eventFor(type, intentId);
  if (!event) throw new Error(`no ${type} for ${intentId}`);
  return stripe.deliver(event.id as string);
}

describe("the pay step through Stripe (decisions §18 One-off payment)", () => {
  it("upfront: one PaymentIntent per application however often the step is entered; a decline, then a success; the webhook after the return changes nothing", async () => {
    const { prospect, link, pay } = await atPay("stripe-upfront", "upfront");
    const intentId = pay.stripe?.intentId as string;
    expect(intentId).toMatch(/^pi_/);
    expect(pay.stripe).toMatchObject({ publishableKey: stripe.publishableKey, returnUrl: expect.stringContaining(`/embedded/`) });
    expect(pay.stripe?.clientSecret).toMatch(new RegExp(`^${intentId}_secret_`));

    const [application] = await applicationsOf(prospect);
    const created = creates("/v1/payment_intents").filter((r) => (r.params.metadata as Record<string, string>)?.application === `pa_${application.id}`);
    expect(created).toHaveLength(1);
    expect(created[0].headers).toMatchObject({
      "idempotency-key": `pay:pa_${application.id}:security_deposit_insurance:upfront`,
      "stripe-version": STRIPE_API_VERSION,
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(created[0].params).toMatchObject({
      amount: String(pay.amountDueCents),
      currency: "usd",
      metadata: { application: `pa_${application.id}`, prospect: "stripe-upfront", owner: expect.any(String) },
    });
    expect(created[0].params.setup_future_usage).toBeUndefined();
    // Entering again (a reload, a second tab) retrieves the recorded intent: no second create.
    expect(((await viewOf(link)) as PayView).stripe?.intentId).toBe(intentId);
    expect(creates("/v1/payment_intents").filter((r) => (r.params.metadata as Record<string, string>)?.application === `pa_${application.id}`)).toHaveLength(1);

    // A card number typed into the old form is refused: card data never reaches this server.
    expect(
      await payEnrollment(link, { number: "4242424242424242", expiry: "12/30", cvc: "123", postalCode: "78704", nameOnCard: "R", attempt: "a" }),
    ).toMatchObject({
      ok: false,
    });
    expect(await payWithToken(link, { token: "not a token" })).toMatchObject({ ok: false, message: FLOW_MESSAGES.paymentTokenInvalid });

    const declined = await payWithToken(link, { token: stripe.confirmationToken("pm_card_chargeDeclined") });
    expect(declined).toMatchObject({ ok: false, message: "Your card was declined.", view: { step: "pay" } });
    expect(await policiesOf(prospect.id)).toEqual([]);
    expect(intentOf(intentId).status).toBe("requires_payment_method");

    const paid = okView(await payWithToken(link, { token: stripe.confirmationToken("pm_card_visa") })) as ResultView;
    expect(paid).toMatchObject({ step: "result", state: "completed", productType: "security_deposit_insurance" });
    const [policy] = await policiesOf(prospect.id);
    expect(policy.policyNumber).toBe(paid.policyNumber);
    const [charge] = await (await getDb()).select().from(paymentCharges).where(eq(paymentCharges.intentId, intentId));
    expect(charge).toMatchObject({ status: "succeeded", processor: "stripe", last4: "4242", brand: "visa", amountCents: pay.amountDueCents });
    const [after] = await applicationsOf(prospect);
    expect(after).toMatchObject({ paymentChargeId: charge.id, paymentLast4: "4242", paymentKey: null });

    // The webhook after the return: kept, handled by its job, nothing issued twice.
    const delivered = await deliverLatest("payment_intent.succeeded", intentId);
    expect(delivered.status).toBe(200);
    expect(JSON.parse(delivered.body)).toEqual({ received: true, handled: true });
    await runDueJobs();
    expect(await policiesOf(prospect.id)).toHaveLength(1);
    const [kept] = await (await getDb())
      .select()
      .from(stripeEvents)
      .where(eq(stripeEvents.id, delivered.event.id as string));
    expect(kept.handledAt).not.toBeNull();
    // Stripe retrying the same event: acknowledged, nothing kept or run again.
    const replay = await stripe.deliver(delivered.event.id as string);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toMatchObject({ duplicate: true });
    // A token after payment answers the result, charges nothing.
    const before = stripe.requests.length;
    expect(okView(await payWithToken(link, { token: stripe.confirmationToken("pm_card_visa") })).step).toBe("result");
    expect(stripe.requests.slice(before).filter((r) => r.path.endsWith("/confirm"))).toEqual([]);
  });

  it("monthly with 3-D Secure there and back: the webhook before the return issues once; the card is saved on the renter's one Customer; billing charges it off-session", async () => {
    const { prospect, link, pay } = await atPay("stripe-monthly-3ds", "monthly");
    const intentId = pay.stripe?.intentId as string;
    const intent = intentOf(intentId);
    expect(intent).toMatchObject({ setup_future_usage: "off_session", customer: expect.stringMatching(/^cus_/) });
    const customerCreates = creates("/v1/customers").filter((r) => r.params.email === prospect.email?.toLowerCase());
    expect(customerCreates).toHaveLength(1);
    expect(customerCreates[0].headers["idempotency-key"]).toBe(`customer:${prospect.email?.toLowerCase()}`);

    const asked = await payWithToken(link, { token: stripe.confirmationToken("pm_card_authenticationRequiredOnSetup") });
    expect(asked).toMatchObject({ ok: false, message: FLOW_MESSAGES.authenticationNeeded });
    const nextActionUrl = (asked.view as PayView).nextActionUrl as string;
    expect(nextActionUrl).toContain(`/3ds/${intentId}`);
    // While the bank decides, the choice is held.
    expect((await applicationsOf(prospect))[0].paymentKey).toMatch(/^pay:/);
    expect(await policiesOf(prospect.id)).toEqual([]);

    // The renter authenticates at the bank's page, which sends the browser back to the flow link.
    const bank = await fetch(`${nextActionUrl}&outcome=pass`, { method: "POST", redirect: "manual" });
    expect(bank.status).toBe(303);
    const back = new URL(bank.headers.get("location") as string);
    expect(back.searchParams.get("payment_intent")).toBe(intentId);
    expect(`${back.origin}${back.pathname}`).toBe(pay.stripe?.returnUrl.split("?")[0]);

    // Stripe's webhook arrives before the browser does.
    expect((await deliverLatest("payment_intent.succeeded", intentId)).status).toBe(200);
    await runDueJobs();
    expect(await policiesOf(prospect.id)).toHaveLength(1);

    const returned = (await viewOf({ ...link, payment_intent: intentId } as LinkParams)) as ResultView;
    expect(returned).toMatchObject({ step: "result", state: "completed" });
    const [policy] = await policiesOf(prospect.id);
    expect(await policiesOf(prospect.id)).toHaveLength(1);

    const db = await getDb();
    const [method] = await db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.customerId, intent.customer as string));
    expect(method).toMatchObject({ processor: "stripe", last4: "3155", token: expect.stringMatching(/^pm_/) });
    expect(
      await db
        .select()
        .from(paymentCustomers)
        .where(eq(paymentCustomers.customerId, intent.customer as string)),
    ).toHaveLength(1);

    // Month 1, off-session: the saved card pays (authenticated once at setup); a second run charges nothing more.
    const processor = processorFor(getConfig());
    const run = await runBilling(db, monthOf(policy, 1), processor);
    expect(run.charged.filter((c) => c.policy_number === policy.policyNumber)).toHaveLength(1);
    const offSession = creates("/v1/payment_intents").filter((r) => r.headers["idempotency-key"] === `bill:${policy.policyNumber}:1`);
    expect(offSession).toHaveLength(1);
    expect(offSession[0].params).toMatchObject({ customer: intent.customer, amount: String(policy.premiumCents) });
    const confirmations = stripe.requests.filter((r) => r.path.endsWith("/confirm") && r.params.off_session === "true");
    expect(confirmations.length).toBeGreaterThan(0);
    await runBilling(db, monthOf(policy, 1), processor);
    expect(creates("/v1/payment_intents").filter((r) => r.headers["idempotency-key"] === `bill:${policy.policyNumber}:1`)).toHaveLength(1);
  });

  it("off-session: a decline and an authentication_required each open the delinquency (decisions §11), nothing charged", async () => {
    const db = await getDb();
    const processor = () =>
      processorFor({
        paymentProcessor: "stripe",
        stripe: { secretKey: stripe.secretKey, publishableKey: stripe.publishableKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
      });

    for (const [id, card, expectedCode] of [
      ["stripe-offsession-decline", "pm_card_visa", "card_declined"],
      ["stripe-offsession-auth", "pm_card_authenticationRequired", "authentication_required"],
    ] as const) {
      const { prospect, link, pay } = await atPay(id, "monthly");
      if (card === "pm_card_authenticationRequired") {
        const asked = await payWithToken(link, { token: stripe.confirmationToken(card) });
        stripe.authenticate(pay.stripe?.intentId as string, true);
        expect(asked).toMatchObject({ ok: false, message: FLOW_MESSAGES.authenticationNeeded });
        expect(await viewOf({ ...link, payment_intent: pay.stripe?.intentId })).toMatchObject({ step: "result", state: "completed" });
      } else {
        okView(await payWithToken(link, { token: stripe.confirmationToken(card) }));
        stripe.declineNextOffSession = true;
      }
      const [policy] = await policiesOf(prospect.id);
      expect(policy).toBeDefined();
      const run = await runBilling(db, monthOf(policy, 1), processor());
      const failed = run.failed.filter((f) => f.policy_number === policy.policyNumber);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ reason: FAILURE_REASONS.declined, delinquency_id: expect.any(String) });
      const [row] = await db.select().from(billingCharges).where(eq(billingCharges.policyId, policy.id));
      expect(row).toMatchObject({ status: "declined", declineCode: expectedCode });
      const [open] = await db.select().from(delinquencies).where(eq(delinquencies.policyId, policy.id));
      expect(open).toMatchObject({ status: "active", amountCents: policy.premiumCents });
      // The console's policy page: the link to send the renter, for authentication_required only (decisions §18 Monthly premiums).
      const { on_session_pay } = await paymentsOfPolicy(db, policy.id);
      if (expectedCode === "authentication_required")
        expect(on_session_pay).toEqual({
          delinquency_id: `delinquency_${open.id}`,
          amount_cents: policy.premiumCents,
          decline_code: "authentication_required",
          url: `${getConfig().enrollmentBaseUrl}/account/policies/${policy.id}/pay`,
        });
      else expect(on_session_pay).toBeNull();
    }
  });

  it("the pay step alone answers Stripe.js's sources in its Content-Security-Policy (decisions §18), with a nonce", async () => {
    const { link } = await atPay("stripe-csp", "upfront");
    const url = new URL(flowLinkUrl(link));
    const nonce = await payStepNonce(url.pathname.replace(/^.*?(\/enroll\/)/, "/enroll/"), url.searchParams);
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(payStepDirectives(nonce as string)).toBe(
      `script-src 'self' 'nonce-${nonce}' https://js.stripe.com https://*.js.stripe.com; frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com; connect-src 'self' https://api.stripe.com`,
    );
    okView(await payWithToken(link, { token: stripe.confirmationToken("pm_card_visa") }));
    // Paid: the result page carries no Stripe policy; nor does a link that does not verify.
    expect(await payStepNonce(url.pathname, url.searchParams)).toBeUndefined();
    const forged = new URLSearchParams(url.searchParams);
    forged.set("sig", "x");
    expect(await payStepNonce(url.pathname, forged)).toBeUndefined();
  });

  it("a cash deposit is not taken through Stripe (decisions §18, until a funds-flow decision): the page says so, nothing is created", async () => {
    const before = creates("/v1/payment_intents").length;
    const { link, pay } = await atPay("stripe-cash", "upfront", "cash_deposit");
    expect(pay).toMatchObject({ paymentAvailable: false, unavailableMessage: FLOW_MESSAGES.cashDepositCardOnly });
    expect(pay.stripe).toBeUndefined();
    expect(await payWithToken(link, { token: stripe.confirmationToken("pm_card_visa") })).toMatchObject({
      ok: false,
      message: FLOW_MESSAGES.cashDepositCardOnly,
    });
    expect(creates("/v1/payment_intents").length).toBe(before);
  });
});

describe("POST /stripe/webhook (decisions §18 Stripe's webhooks)", () => {
  const post = async (body: string, headers: Record<string, string>) => {
    const response = await fetch(`${await webDoorUrl()}/stripe/webhook`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
    return { status: response.status, body: await response.json() };
  };

  it("refuses a missing, forged, altered or stale signature with 400 and keeps nothing", async () => {
    const Stripe = (await import("stripe")).default;
    const event = { id: "evt_forged_1", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_nothing", object: "payment_intent" } } };
    const payload = JSON.stringify(event);
    expect(await post(payload, {})).toMatchObject({ status: 400, body: { status_code: 400, error: expect.stringContaining("missing") } });
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_notthesecret" });
    expect((await post(payload, { "Stripe-Signature": forged })).status).toBe(400);
    const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe.webhookSecret });
    expect((await post(payload.replace("pi_nothing", "pi_other"), { "Stripe-Signature": signed })).status).toBe(400);
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe.webhookSecret, timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect((await post(payload, { "Stripe-Signature": stale })).status).toBe(400);
    expect(await (await getDb()).select().from(stripeEvents).where(eq(stripeEvents.id, "evt_forged_1"))).toEqual([]);
  });

  it("answers 200 to a type it does not handle, keeping nothing; an intent never recorded is ignored", async () => {
    const Stripe = (await import("stripe")).default;
    const unknown = JSON.stringify({ id: "evt_unknown_1", object: "event", type: "customer.created", data: { object: { id: "cus_x", object: "customer" } } });
    const answer = await post(unknown, { "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload: unknown, secret: stripe.webhookSecret }) });
    expect(answer).toEqual({ status: 200, body: { received: true, handled: false } });
    expect(await (await getDb()).select().from(stripeEvents).where(eq(stripeEvents.id, "evt_unknown_1"))).toEqual([]);

    const foreign = JSON.stringify({
      id: "evt_foreign_1",
      object: "event",
      type: "payment_intent.succeeded",
      data: { object: { id: "pi_foreign", object: "payment_intent" } },
    });
    const kept = await post(foreign, { "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload: foreign, secret: stripe.webhookSecret }) });
    expect(kept).toEqual({ status: 200, body: { received: true, handled: true } });
    await runDueJobs();
    const [row] = await (await getDb()).select().from(stripeEvents).where(eq(stripeEvents.id, "evt_foreign_1"));
    expect(row.handledAt).not.toBeNull();
  });
});
