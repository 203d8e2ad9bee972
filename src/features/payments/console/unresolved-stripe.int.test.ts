import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { runDueJobs } from "../../../test/jobs";
import { stripeServerOfThisFile } from "../../../test/stripe-env";
import { monthOf } from "../../billing/billing-test-helpers";
import { runBilling } from "../../billing/run";
import type { LinkParams, PayView, ResultView } from "../../enrollment/flow/contract";
import { DETAILS, okView, renter, viewOf } from "../../enrollment/flow/flow-test-helpers";
import { chooseProduct, payWithToken, submitDetails } from "../../enrollment/flow/service";
import { policies } from "../../policies/policies.table";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { paymentCharges } from "../payments.table";
import { processorFor } from "../processor-for";
import { UNRESOLVED_AFTER_MS, unresolvedPayments } from "./policy-payments";

/**
 * The console's unresolved payments (decisions §18 Reconciliation: "the console lists payments still
 * unresolved after an hour"), against the local Stripe-compatible server: an intent the renter left
 * open, and a monthly charge Stripe keeps `processing`.
 */
const partner = enrollmentPartnersOfThisFile();
const stripe = stripeServerOfThisFile();

async function atPay(id: string, cadence: "upfront" | "monthly") {
  const p = await partner();
  const { link } = await renter(p, id);
  okView(await submitDetails(link, DETAILS));
  await runDueJobs();
  okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence }));
  return { link, pay: (await viewOf(link)) as PayView };
}

const age = async (intentId: string, ms: number) =>
  (await getDb())
    .update(paymentCharges)
    .set({ createdAt: new Date(Date.now() - ms) })
    .where(eq(paymentCharges.intentId, intentId));

describe("payments unresolved after an hour (payments.unresolved)", () => {
  it("lists an intent undecided for over an hour, linked to Stripe's test dashboard, and no longer once it is decided", async () => {
    const { link, pay } = await atPay("unresolved-1", "upfront");
    const intentId = pay.stripe?.intentId as string;
    const db = await getDb();
    await age(intentId, UNRESOLVED_AFTER_MS - 60_000);
    expect((await unresolvedPayments(db)).map((row) => row.processor_id)).not.toContain(intentId);

    await age(intentId, UNRESOLVED_AFTER_MS + 60_000);
    const listed = (await unresolvedPayments(db)).find((row) => row.processor_id === intentId);
    expect(listed).toMatchObject({
      subject: expect.stringMatching(/^application:pa_\d+$/),
      policy: null,
      amount_cents: pay.amountDueCents,
      status: "pending",
      processor: "stripe",
      dashboard_url: `https://dashboard.stripe.com/test/payments/${intentId}`,
    });

    okView(await payWithToken(link, { token: stripe().confirmationToken("pm_card_visa") }));
    expect((await unresolvedPayments(db)).map((row) => row.processor_id)).not.toContain(intentId);
  });

  it("a monthly charge Stripe keeps processing is listed with its policy", async () => {
    const { link, pay } = await atPay("unresolved-2", "monthly");
    const first = pay.stripe?.intentId as string;
    await payWithToken(link, { token: stripe().confirmationToken("pm_card_processing") });
    stripe().settle(first, true);
    const done = (await viewOf({ ...link, payment_intent: first } as LinkParams)) as ResultView;
    expect(done).toMatchObject({ step: "result", state: "completed" });
    const db = await getDb();
    const [policy] = await db
      .select()
      .from(policies)
      .where(eq(policies.policyNumber, done.policyNumber ?? ""));

    // The saved card is one whose payments stay processing: month 1 is undecided at Stripe.
    await runBilling(db, monthOf(policy, 1), processorFor(getConfig()));
    const [month] = await db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.idempotencyKey, `bill:${policy.policyNumber}:1`));
    expect(month).toMatchObject({ status: "processing", subject: `policy:${policy.policyNumber}` });
    await age(month.intentId as string, UNRESOLVED_AFTER_MS + 60_000);
    expect((await unresolvedPayments(db)).find((row) => row.processor_id === month.intentId)).toMatchObject({
      status: "processing",
      policy: { id: policy.id, policy_number: policy.policyNumber },
      amount_cents: policy.premiumCents,
    });
  });
});
