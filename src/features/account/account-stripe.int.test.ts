import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { runDueJobs } from "../../test/jobs";
import { stripeServerOfThisFile } from "../../test/stripe-env";
import type { StripeTestServer } from "../../test/stripe-server";
import { auditLog } from "../audit/audit-log.table";
import { billingCharges, delinquencies } from "../billing/billing.table";
import { billingPartnersOfThisFile, monthOf } from "../billing/billing-test-helpers";
import { storedMethodOf } from "../billing/method";
import { runBilling } from "../billing/run";
import type { PayView, ResultView } from "../enrollment/flow/contract";
import { DETAILS, okView, renter, viewOf } from "../enrollment/flow/flow-test-helpers";
import { chooseProduct, payWithToken, submitDetails } from "../enrollment/flow/service";
import { renterPayUrl } from "../messages/links";
import { renterMessages } from "../messages/renter-messages.table";
import { paymentsOfPolicy } from "../payments/console/policy-payments";
import { reconcilePayments } from "../payments/payment__reconcile";
import { paymentMethods } from "../payments/payments.table";
import type { PaymentPort } from "../payments/port";
import { paymentPortFor } from "../payments/port-for";
import { processorFor } from "../payments/processor-for";
import { type Policy, policies } from "../policies/policies.table";
import { kindOf } from "./account-test-helpers";
import { cardUpdateReturn, openStripeCardUpdate, renterCardUrl, updateCardWithToken } from "./stripe-card";
import { accountStripePageNonce } from "./stripe-pages";
import { openStripePayNow, payNowReturn, payNowWithToken } from "./stripe-payments";

/**
 * The renter account's Pay now and Update card through Stripe (decisions §18 Monthly premiums, §19;
 * docs/decisions.md, "Renter account: Pay now and Update card through Stripe"), against the local
 * Stripe-compatible server. The browser's part (the Payment Element making a ConfirmationToken, the
 * bank's 3-D Secure page) is played by the server's test helper and its 3-D Secure page over HTTP.
 */
const partner = billingPartnersOfThisFile();
const server = stripeServerOfThisFile();
let stripe: StripeTestServer;
let seq = 0;
const freshEmail = () => `renter.stripe.${Date.now()}.${++seq}@example.com`;

beforeAll(() => {
  stripe = server();
});

type P = Awaited<ReturnType<typeof partner>>;

/** A monthly policy bought through the Stripe pay step with a test card (3-D Secure passed when it asks). */
async function stripeMonthly(p: P, id: string, email: string, card: string): Promise<Policy> {
  const { link } = await renter(p, id, { email });
  okView(await submitDetails(link, DETAILS));
  await runDueJobs();
  okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "monthly" }));
  const intentId = ((await viewOf(link)) as PayView).stripe?.intentId as string;
  const answer = await payWithToken(link, { token: stripe.confirmationToken(card) });
  if (!answer.ok) stripe.authenticate(intentId, true);
  const done = (await viewOf({ ...link, payment_intent: intentId })) as ResultView;
  const [policy] = await (await getDb())
    .select()
    .from(policies)
    .where(eq(policies.policyNumber, done.policyNumber ?? ""));
  return policy;
}

/** Month 1 declined off-session with `authentication_required` (the card always asks for 3-D Secure): the delinquency opens. */
async function authenticationRequired(p: P, id: string, email: string) {
  const policy = await stripeMonthly(p, id, email, "pm_card_authenticationRequired");
  const db = await getDb();
  const run = await runBilling(db, monthOf(policy, 1), processorFor(getConfig()));
  expect(run.failed.find((f) => f.policy_number === policy.policyNumber)).toMatchObject({ reason: "card_declined" });
  const [open] = await db.select().from(delinquencies).where(eq(delinquencies.policyId, policy.id));
  expect(open).toMatchObject({ status: "active", amountCents: policy.premiumCents });
  return { policy, open };
}

/** The bank's 3-D Secure page, as the renter's browser meets it: a page, a button, a redirect back. */
async function passThreeDs(redirectUrl: string | null, pass = true): Promise<URL> {
  if (!redirectUrl) throw new Error("no 3-D Secure page");
  const page = await fetch(redirectUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("data-three-d-secure");
  const answer = await fetch(`${redirectUrl}&outcome=${pass ? "pass" : "fail"}`, { method: "POST", redirect: "manual" });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get("location") ?? "");
}

async function settlementsOf(policyId: number) {
  return (await getDb())
    .select()
    .from(billingCharges)
    .where(and(eq(billingCharges.policyId, policyId), eq(billingCharges.kind, "settlement")));
}

async function auditsOf(action: string, policyId: number) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.subjectId, String(policyId))));
}

const resolvedMessagesTo = async (email: string) =>
  (await getDb())
    .select()
    .from(renterMessages)
    .where(and(eq(renterMessages.toAddress, email), eq(renterMessages.kind, "delinquency_resolved")));

describe("Pay now through Stripe: an on-session PaymentIntent for the open delinquency (decisions §18, §19)", () => {
  it("authentication_required: the message's and the console's link lead to the pay page; 3-D Secure; the webhook first, then the return; settled once", async () => {
    const p = await partner();
    const email = freshEmail();
    const { policy, open } = await authenticationRequired(p, "acct-stripe-3ds", email);
    const db = await getDb();

    // The link the renter is sent and the one the console shows are this page.
    const [failed] = await db
      .select()
      .from(renterMessages)
      .where(and(eq(renterMessages.toAddress, email), eq(renterMessages.kind, "payment_failed")));
    expect((failed.data as { payUrl: string }).payUrl).toBe(renterPayUrl(policy.id));
    expect((await paymentsOfPolicy(db, policy.id)).on_session_pay?.url).toBe(renterPayUrl(policy.id));

    const view = await openStripePayNow(db, email, policy.id);
    if (view.outcome !== "open") throw new Error(`pay page: ${view.outcome}`);
    expect(view).toMatchObject({ amountCents: policy.premiumCents, form: { intentId: expect.stringMatching(/^pi_/), returnUrl: renterPayUrl(policy.id) } });
    expect(view.form.publishableKey).toBe(stripe.publishableKey);
    // A reload or a second tab: the same intent, created once under the delinquency's key.
    expect(await openStripePayNow(db, email, policy.id)).toEqual(view);
    const key = `pay_now:${policy.policyNumber}:delinquency_${open.id}:${policy.premiumCents}`;
    const creates = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents" && r.headers["idempotency-key"] === key);
    expect(creates).toHaveLength(1);
    expect(creates[0].params).toMatchObject({
      amount: String(policy.premiumCents),
      currency: "usd",
      metadata: { policy_number: policy.policyNumber, policy_id: String(policy.id), delinquency_id: `delinquency_${open.id}` },
    });
    expect(creates[0].params.off_session).toBeUndefined();

    // The card asks for 3-D Secure: nothing settled yet.
    const asked = await payNowWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_authenticationRequired"));
    if (asked.outcome !== "requires_action") throw new Error(`confirmation: ${asked.outcome}`);
    expect(await settlementsOf(policy.id)).toEqual([]);
    const back = await passThreeDs(asked.redirectUrl);
    expect(`${back.origin}${back.pathname}`).toBe(renterPayUrl(policy.id));
    expect(back.searchParams.get("payment_intent")).toBe(view.form.intentId);

    // Stripe's event arrives before the browser is back.
    const event = stripe.eventFor("payment_intent.succeeded", view.form.intentId) as Record<string, unknown>;
    expect((await stripe.deliver(event.id as string)).status).toBe(200);
    await runDueJobs();
    const [resolved] = await db.select().from(delinquencies).where(eq(delinquencies.id, open.id));
    expect(resolved).toMatchObject({ status: "resolved", amountCents: 0, settledCents: policy.premiumCents });

    // The return and a replayed event change nothing.
    expect(await payNowReturn(db, email, policy.id, view.form.intentId)).toBe("paid");
    expect(JSON.parse((await stripe.deliver(event.id as string)).body)).toMatchObject({ duplicate: true });
    await runDueJobs();
    const settlements = await settlementsOf(policy.id);
    expect(settlements).toEqual([
      expect.objectContaining({ status: "succeeded", amountCents: policy.premiumCents, processorChargeId: view.form.intentId, delinquencyId: open.id }),
    ]);
    expect((await auditsOf("billing.settle", policy.id)).map((row) => row.actorLabel)).toEqual(["system:stripe_webhook"]);
    expect(await resolvedMessagesTo(email)).toHaveLength(1);
    expect(p.deliveredOf("delinquency.resolved")).toHaveLength(1);
    expect(await openStripePayNow(db, email, policy.id)).toEqual({ outcome: "nothing_due" });
  });

  it("a decline stays on the page with the same intent; then 3-D Secure and the return first, Stripe's webhook after: settled once, by the renter", async () => {
    const p = await partner();
    const email = freshEmail();
    const { policy, open } = await authenticationRequired(p, "acct-stripe-return", email);
    const db = await getDb();
    const first = await openStripePayNow(db, email, policy.id);
    if (first.outcome !== "open") throw new Error(first.outcome);

    expect(await payNowWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_chargeDeclined"))).toEqual({
      outcome: "declined",
      message: "Your card was declined.",
    });
    const again = await openStripePayNow(db, email, policy.id);
    expect(again).toMatchObject({ outcome: "open", form: { intentId: first.form.intentId, lastError: "Your card was declined." } });
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0].status).toBe("active");

    const asked = await payNowWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_authenticationRequired"));
    if (asked.outcome !== "requires_action") throw new Error(asked.outcome);
    const back = await passThreeDs(asked.redirectUrl);
    expect(await payNowReturn(db, email, policy.id, back.searchParams.get("payment_intent") ?? "")).toBe("paid");
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0].status).toBe("resolved");

    const event = stripe.eventFor("payment_intent.succeeded", first.form.intentId) as Record<string, unknown>;
    expect((await stripe.deliver(event.id as string)).status).toBe(200);
    await runDueJobs();
    expect(await settlementsOf(policy.id)).toHaveLength(1);
    expect((await auditsOf("billing.settle", policy.id)).map((row) => row.actorLabel)).toEqual([`renter:${email}`]);
    expect(await resolvedMessagesTo(email)).toHaveLength(1);
    expect(p.deliveredOf("delinquency.resolved")).toHaveLength(1);
    // Paid with a card that pays at once: no 3-D Secure, settled by the confirmation itself.
    expect(await payNowWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_visa"))).toEqual({ outcome: "nothing_due" });
  });

  it("a closed tab after 3-D Secure and a lost webhook: the reconciliation job settles it, once", async () => {
    const p = await partner();
    const email = freshEmail();
    const { policy, open } = await authenticationRequired(p, "acct-stripe-reconcile", email);
    const db = await getDb();
    const asked = await payNowWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_authenticationRequired"));
    if (asked.outcome !== "requires_action") throw new Error(asked.outcome);
    await passThreeDs(asked.redirectUrl);
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0].status).toBe("active");

    const port = paymentPortFor(getConfig()) as PaymentPort;
    const later = new Date(Date.now() + 11 * 60 * 1000);
    expect((await reconcilePayments(db, port, later)).resolved).toBeGreaterThanOrEqual(1);
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0].status).toBe("resolved");
    await reconcilePayments(db, port, later);
    await runDueJobs();
    expect(await settlementsOf(policy.id)).toHaveLength(1);
    expect((await auditsOf("billing.settle", policy.id)).map((row) => row.actorLabel)).toEqual(["system:stripe_webhook"]);
    expect(p.deliveredOf("delinquency.resolved")).toHaveLength(1);
  });

  it("a month declined while the renter paid: the payment counts in part, and the rest is a new intent, not the one already paid", async () => {
    const p = await partner();
    const email = freshEmail();
    const { policy, open } = await authenticationRequired(p, "acct-stripe-partial", email);
    const db = await getDb();
    const port = paymentPortFor(getConfig()) as PaymentPort;
    // The renter opens the pay page for month 1's premium…
    const tab = await openStripePayNow(db, email, policy.id);
    if (tab.outcome !== "open") throw new Error(tab.outcome);
    expect(tab.amountCents).toBe(policy.premiumCents);
    // …month 2 is declined too before the renter pays: the delinquency grows to two premiums…
    await runBilling(db, monthOf(policy, 2), processorFor(getConfig()));
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0]).toMatchObject({
      status: "active",
      amountCents: 2 * policy.premiumCents,
    });
    // …and the page's intent (one premium) is paid: counted, the delinquency still open for the rest.
    await port.confirmIntent(tab.form.intentId, { token: stripe.confirmationToken("pm_card_visa"), returnUrl: tab.form.returnUrl });
    expect(await payNowReturn(db, email, policy.id, tab.form.intentId)).toBe("paid");
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0].status).toBe("active");
    expect((await settlementsOf(policy.id)).map((row) => [row.amountCents, row.status])).toEqual([[policy.premiumCents, "succeeded"]]);

    // The rest (one premium again) is a new intent under a key naming what was collected.
    const rest = await openStripePayNow(db, email, policy.id);
    if (rest.outcome !== "open") throw new Error(`the rest: ${rest.outcome}`);
    expect(rest.amountCents).toBe(policy.premiumCents);
    expect(rest.form.intentId).not.toBe(tab.form.intentId);
    const key = `pay_now:${policy.policyNumber}:delinquency_${open.id}:${policy.premiumCents}:after_${policy.premiumCents}`;
    expect(stripe.requests.filter((r) => r.path === "/v1/payment_intents" && r.headers["idempotency-key"] === key)).toHaveLength(1);
    expect(await payNowWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_visa"))).toEqual({ outcome: "paid" });
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0]).toMatchObject({
      status: "resolved",
      settledCents: 2 * policy.premiumCents,
    });
    await runDueJobs();
    expect(await settlementsOf(policy.id)).toHaveLength(2);
    expect(p.deliveredOf("delinquency.resolved")).toHaveLength(1);
    expect(await resolvedMessagesTo(email)).toHaveLength(1);
  });

  it("a tab paying a delinquency another tab already settled: kept as paid twice, applied to nothing else, resolved once", async () => {
    const p = await partner();
    const email = freshEmail();
    const { policy, open } = await authenticationRequired(p, "acct-stripe-twice", email);
    const db = await getDb();
    const port = paymentPortFor(getConfig()) as PaymentPort;
    const first = await openStripePayNow(db, email, policy.id);
    if (first.outcome !== "open") throw new Error(first.outcome);
    await runBilling(db, monthOf(policy, 2), processorFor(getConfig()));
    // A second tab, opened after month 2, pays both premiums: resolved.
    expect(await payNowWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_visa"))).toEqual({ outcome: "paid" });
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0].status).toBe("resolved");
    // The first tab's intent (month 1's premium) is paid afterwards.
    await port.confirmIntent(first.form.intentId, { token: stripe.confirmationToken("pm_card_visa"), returnUrl: first.form.returnUrl });
    expect(await payNowReturn(db, email, policy.id, first.form.intentId)).toBe("paid");
    await runDueJobs();
    const settlements = await settlementsOf(policy.id);
    expect(settlements.map((row) => [row.amountCents, row.status, row.delinquencyId]).sort()).toEqual(
      [
        [2 * policy.premiumCents, "succeeded", open.id],
        [policy.premiumCents, "succeeded", open.id],
      ].sort(),
    );
    expect((await db.select().from(delinquencies).where(eq(delinquencies.policyId, policy.id))).map((row) => row.status)).toEqual(["resolved"]);
    expect(p.deliveredOf("delinquency.resolved")).toHaveLength(1);
    expect(await auditsOf("billing.settle", policy.id)).toHaveLength(1);
    // Nothing is open, so the page has nothing to pay.
    expect(await openStripePayNow(db, email, policy.id)).toEqual({ outcome: "nothing_due" });
  });

  it("refuses another renter's policy (404) and a token that is not Stripe's (400); a return naming another intent settles nothing", async () => {
    const p = await partner();
    const email = freshEmail();
    const { policy, open } = await authenticationRequired(p, "acct-stripe-refuse", email);
    const db = await getDb();
    expect(await kindOf(openStripePayNow(db, freshEmail(), policy.id))).toBe("not_found");
    expect(await kindOf(payNowWithToken(db, freshEmail(), policy.id, stripe.confirmationToken("pm_card_visa")))).toBe("not_found");
    expect(await kindOf(payNowWithToken(db, email, policy.id, "4242424242424242"))).toBe("invalid");
    expect(await kindOf(payNowWithToken(db, email, policy.id, ""))).toBe("invalid");
    // The purchase's own intent (succeeded, but an application's) and a made-up id: ignored.
    const purchase = [...stripe.intents.values()].find(
      (intent) => (intent.object.metadata as Record<string, string>).application === `pa_${policy.applicationId}`,
    );
    expect(await payNowReturn(db, email, policy.id, purchase?.object.id as string)).toBe("ignored");
    expect(await payNowReturn(db, email, policy.id, "pi_madeup")).toBe("ignored");
    expect(await payNowReturn(db, email, policy.id, "../../etc")).toBe("ignored");
    expect((await db.select().from(delinquencies).where(eq(delinquencies.id, open.id)))[0].status).toBe("active");
    expect(await settlementsOf(policy.id)).toEqual([]);
  });
});

describe("Update card through Stripe: a SetupIntent on the renter's Customer (decisions §18 setup_intent.succeeded, §19)", () => {
  it("a refused card changes nothing; 3-D Secure on saving; the return applies it once, the webhook after changes nothing; the next billing run charges it", async () => {
    const p = await partner();
    const email = freshEmail();
    const policy = await stripeMonthly(p, "acct-stripe-card", email, "pm_card_visa");
    const db = await getDb();
    const before = await storedMethodOf(db, policy.id);

    const view = await openStripeCardUpdate(db, email, policy.id);
    if (view.outcome !== "open") throw new Error(view.outcome);
    expect(view.form).toMatchObject({ intentId: expect.stringMatching(/^seti_/), returnUrl: renterCardUrl(policy.id), publishableKey: stripe.publishableKey });
    expect(await openStripeCardUpdate(db, email, policy.id)).toEqual(view);

    expect(await updateCardWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_chargeDeclined"))).toEqual({
      outcome: "declined",
      message: "Your card was declined.",
    });
    expect(await storedMethodOf(db, policy.id)).toBe(before);

    const asked = await updateCardWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_authenticationRequiredOnSetup"));
    if (asked.outcome !== "requires_action") throw new Error(asked.outcome);
    expect(asked.redirectUrl).toContain(`/3ds/${view.form.intentId}`);
    expect(await storedMethodOf(db, policy.id)).toBe(before);
    const back = await passThreeDs(asked.redirectUrl);
    expect(`${back.origin}${back.pathname}`).toBe(renterCardUrl(policy.id));
    expect(await cardUpdateReturn(db, email, policy.id, back.searchParams.get("setup_intent") ?? "")).toBe("saved");
    const now = await storedMethodOf(db, policy.id);
    expect(now).not.toBe(before);
    const [method] = await db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, now as string));
    expect(method).toMatchObject({ processor: "stripe", last4: "3155" });

    const event = stripe.eventFor("setup_intent.succeeded", view.form.intentId) as Record<string, unknown>;
    expect((await stripe.deliver(event.id as string)).status).toBe(200);
    await runDueJobs();
    expect(await cardUpdateReturn(db, email, policy.id, view.form.intentId)).toBe("saved");
    expect((await auditsOf("billing.card_updated", policy.id)).map((row) => [row.actorLabel, (row.after as { last4: string }).last4])).toEqual([
      [`renter:${email}`, "3155"],
    ]);

    // The next month is charged off-session to the new card (authenticated once when saved).
    const run = await runBilling(db, monthOf(policy, 1), processorFor(getConfig()));
    expect(run.charged.filter((c) => c.policy_number === policy.policyNumber)).toHaveLength(1);
    const confirm = stripe.requests.filter((r) => r.path.endsWith("/confirm") && r.params.off_session === "true").at(-1);
    expect(confirm?.params.payment_method).toBe(method.token);
    // The page now opens a new SetupIntent for the card after this one.
    const next = await openStripeCardUpdate(db, email, policy.id);
    expect(next).toMatchObject({ outcome: "open" });
    if (next.outcome === "open") expect(next.form.intentId).not.toBe(view.form.intentId);
  });

  it("a failed 3-D Secure keeps the card; another renter's policy is 404 and another policy's SetupIntent is ignored", async () => {
    const p = await partner();
    const email = freshEmail();
    const policy = await stripeMonthly(p, "acct-stripe-card-fail", email, "pm_card_visa");
    const db = await getDb();
    const before = await storedMethodOf(db, policy.id);
    const view = await openStripeCardUpdate(db, email, policy.id);
    if (view.outcome !== "open") throw new Error(view.outcome);
    const asked = await updateCardWithToken(db, email, policy.id, stripe.confirmationToken("pm_card_authenticationRequired"));
    if (asked.outcome !== "requires_action") throw new Error(asked.outcome);
    const back = await passThreeDs(asked.redirectUrl, false);
    expect(back.searchParams.get("redirect_status")).toBe("failed");
    expect(await cardUpdateReturn(db, email, policy.id, view.form.intentId)).toBe("not_saved");
    expect(await storedMethodOf(db, policy.id)).toBe(before);
    expect(await openStripeCardUpdate(db, email, policy.id)).toMatchObject({
      form: { intentId: view.form.intentId, lastError: expect.stringContaining("unable to authenticate") },
    });

    expect(await kindOf(openStripeCardUpdate(db, freshEmail(), policy.id))).toBe("not_found");
    expect(await kindOf(updateCardWithToken(db, email, policy.id, "tok_visa"))).toBe("invalid");
    const other = await stripeMonthly(p, "acct-stripe-card-other", email, "pm_card_visa");
    const otherView = await openStripeCardUpdate(db, email, other.id);
    if (otherView.outcome !== "open") throw new Error(otherView.outcome);
    expect(await cardUpdateReturn(db, email, policy.id, otherView.form.intentId)).toBe("ignored");
  });
});

describe("Stripe.js's sources on the account's card pages only (decisions §18: Stripe pages only)", () => {
  it("the pay and card pages of a policy get a nonce; the policies, sign-in and any other path do not", () => {
    for (const page of ["/enroll/account/policies/12/pay", "/enroll/account/policies/12/card"])
      expect(accountStripePageNonce(page)).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    for (const page of [
      "/enroll/account",
      "/enroll/account/sign-in/abc",
      "/enroll/account/policies/12",
      "/enroll/account/policies/x/pay",
      "/enroll/account/policies/12/pay/x",
    ])
      expect(accountStripePageNonce(page), page).toBeUndefined();
  });
});
