import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { runDueJobs } from "../../../test/jobs";
import { stripeServerOfThisFile } from "../../../test/stripe-env";
import type { StripeTestServer } from "../../../test/stripe-server";
import { auditLog } from "../../audit/audit-log.table";
import { monthOf } from "../../billing/billing-test-helpers";
import { storedMethodOf } from "../../billing/method";
import { runBilling } from "../../billing/run";
import type { PayView, ResultView } from "../../enrollment/flow/contract";
import { DETAILS, okView, renter, viewOf } from "../../enrollment/flow/flow-test-helpers";
import { chooseProduct, payWithToken, submitDetails } from "../../enrollment/flow/service";
import { type Policy, policies } from "../../policies/policies.table";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { completeCardSetup, startCardSetup } from "../card-setup";
import { cardSetupFor } from "../card-setup-for";
import { PAYMENT_MESSAGES } from "../messages";
import { paymentMethods } from "../payments.table";
import { processorFor } from "../processor-for";

/**
 * A new card for a monthly policy through Stripe's SetupIntents (decisions §18 `setup_intent.succeeded`;
 * docs/decisions.md, "A new card through Stripe"), against the local Stripe-compatible server. The
 * browser's part (Stripe.js confirming with the client secret) is played by the SDK confirming the
 * SetupIntent with a test card.
 */
const partner = enrollmentPartnersOfThisFile();
const server = stripeServerOfThisFile();
let stripe: StripeTestServer;
let sdk: Stripe;

beforeAll(() => {
  stripe = server();
  sdk = new Stripe(stripe.secretKey, { host: "127.0.0.1", port: Number(new URL(stripe.url).port), protocol: "http" });
});

async function stripePolicy(id: string, cadence: "monthly" | "upfront"): Promise<{ policy: Policy; customer: string | null }> {
  const p = await partner();
  const { link } = await renter(p, id);
  okView(await submitDetails(link, DETAILS));
  await runDueJobs();
  okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence }));
  const pay = (await viewOf(link)) as PayView;
  const done = okView(await payWithToken(link, { token: stripe.confirmationToken("pm_card_visa") })) as ResultView;
  const [policy] = await (await getDb())
    .select()
    .from(policies)
    .where(eq(policies.policyNumber, done.policyNumber ?? ""));
  return { policy, customer: stripe.intents.get(pay.stripe?.intentId as string)?.object.customer as string | null };
}

const setupCreates = () => stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/setup_intents");

describe("a new card for a monthly policy through Stripe (SetupIntent, setup_intent.succeeded)", () => {
  it("saved on the renter's Customer, made the policy's billing card once by Stripe's event, then charged off-session", async () => {
    const { policy, customer } = await stripePolicy("stripe-setup-1", "monthly");
    const db = await getDb();
    const port = cardSetupFor(getConfig());
    const before = await storedMethodOf(db, policy.id);

    const setup = await startCardSetup(db, port, policy.id);
    expect(setup).toMatchObject({ setupIntentId: expect.stringMatching(/^seti_/), status: "requires_payment_method", customerId: customer });
    expect(setup.clientSecret).toMatch(new RegExp(`^${setup.setupIntentId}_secret_`));
    // A second tab: the same SetupIntent (the same key), nothing new at Stripe.
    expect((await startCardSetup(db, port, policy.id)).setupIntentId).toBe(setup.setupIntentId);
    expect(setupCreates().filter((r) => r.headers["idempotency-key"] === `setup:${policy.policyNumber}:1`)).toHaveLength(2);
    expect(stripe.setupIntents.size).toBe(1);
    expect(setupCreates()[0].params).toMatchObject({ customer, usage: "off_session", metadata: { policy_id: String(policy.id) } });

    // The renter's browser confirms with Stripe.js; Stripe's event arrives.
    await sdk.setupIntents.confirm(setup.setupIntentId, { payment_method: "pm_card_mastercard" });
    const event = stripe.eventFor("setup_intent.succeeded", setup.setupIntentId) as Record<string, unknown>;
    const delivered = await stripe.deliver(event.id as string);
    expect(delivered.status).toBe(200);
    expect(JSON.parse(delivered.body)).toEqual({ received: true, handled: true });
    await runDueJobs();
    const now = await storedMethodOf(db, policy.id);
    expect(now).not.toBe(before);
    const [method] = await db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, now as string));
    expect(method).toMatchObject({ processor: "stripe", last4: "4444", brand: "mastercard", customerId: customer, token: expect.stringMatching(/^pm_/) });

    // Stripe retrying, and the browser's return: nothing changes, one audit row.
    expect(JSON.parse((await stripe.deliver(event.id as string)).body)).toMatchObject({ duplicate: true });
    expect(await completeCardSetup(db, port as NonNullable<typeof port>, setup.setupIntentId)).toEqual({ outcome: "unchanged" });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.card_updated"), eq(auditLog.subjectId, String(policy.id))));
    expect(audits.map((row) => [row.actorLabel, (row.after as { last4: string }).last4])).toEqual([["system:stripe_webhook", "4444"]]);

    // Month 1 is charged off-session with the new card.
    await runBilling(db, monthOf(policy, 1), processorFor(getConfig()));
    const confirm = stripe.requests.filter((r) => r.path.endsWith("/confirm") && r.params.off_session === "true").at(-1);
    expect(confirm?.params.payment_method).toBe(method.token);

    // A card the bank declines while saving: Stripe's card error, and the policy keeps its card.
    const next = await startCardSetup(db, port, policy.id);
    expect(next.setupIntentId).not.toBe(setup.setupIntentId);
    expect(setupCreates().at(-1)?.headers["idempotency-key"]).toBe(`setup:${policy.policyNumber}:2`);
    await expect(sdk.setupIntents.confirm(next.setupIntentId, { payment_method: "pm_card_chargeDeclined" })).rejects.toMatchObject({
      type: "StripeCardError",
      code: "card_declined",
    });
    expect(await completeCardSetup(db, port as NonNullable<typeof port>, next.setupIntentId)).toEqual({ outcome: "not_succeeded" });
    expect(await storedMethodOf(db, policy.id)).toBe(now);
  });

  it("refused for a policy paid upfront, and a SetupIntent naming no policy of ours (made in Stripe's dashboard) changes nothing", async () => {
    const { policy } = await stripePolicy("stripe-setup-2", "upfront");
    const db = await getDb();
    const port = cardSetupFor(getConfig());
    await expect(startCardSetup(db, port, policy.id)).rejects.toMatchObject({ kind: "conflict", message: PAYMENT_MESSAGES.setupNotMonthly });

    const foreign = await sdk.setupIntents.create({ usage: "off_session", metadata: {} });
    await sdk.setupIntents.confirm(foreign.id, { payment_method: "pm_card_visa" });
    const event = stripe.eventFor("setup_intent.succeeded", foreign.id) as Record<string, unknown>;
    expect((await stripe.deliver(event.id as string)).status).toBe(200);
    await runDueJobs();
    expect(await completeCardSetup(db, port as NonNullable<typeof port>, foreign.id)).toEqual({ outcome: "not_ours" });
  });
});
