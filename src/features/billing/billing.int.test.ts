import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { addJob } from "../../server/jobs/define-task";
import { runDueJobs } from "../../test/jobs";
import { paymentCharges, paymentMethods } from "../payments/payments.table";
import { NotConfiguredProcessor } from "../payments/processor-for";
import { SimulatedProcessor } from "../payments/simulated-processor";
import { formatPolicyNumber } from "../policies/coverage";
import { policies } from "../policies/policies.table";
import { insertBarePolicy } from "../policies/policy-test-helpers";
import { billingCharges, delinquencies } from "./billing.table";
import { billingRun } from "./billing__run";
import { billingPartnersOfThisFile, monthlyPolicy, monthOf } from "./billing-test-helpers";
import { FAILURE_REASONS } from "./messages";
import { storedMethodOf } from "./method";
import { type BillingRun, periodKey, policySubject, runBilling } from "./run";
import { periodStart } from "./schedule";

const partner = billingPartnersOfThisFile();
const simulated = new SimulatedProcessor();

/** The run's items about one policy (each test file's database holds other tests' policies too). */
const about = (run: BillingRun, policyNumber: string) => ({
  charged: run.charged.filter((item) => item.policy_number === policyNumber),
  failed: run.failed.filter((item) => item.policy_number === policyNumber),
});

const chargesOfSubject = async (policyNumber: string) =>
  (await getDb())
    .select()
    .from(paymentCharges)
    .where(eq(paymentCharges.subject, policySubject(policyNumber)));

describe("monthly billing (decisions §11 Billing)", () => {
  it("a monthly purchase keeps the card and charges the first month to it; billing uses that card", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "bill-card");
    const methodId = await storedMethodOf(await getDb(), policy.id);
    expect(methodId).toMatch(/^pm_/);
    const [method] = await (await getDb())
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, methodId as string));
    expect(method).toMatchObject({ last4: "4242", brand: "visa" });
  });

  it("charges each month from month 1 on its start day, once; month 0 was paid at purchase; upfront policies never", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "bill-schedule");
    const db = await getDb();
    const dayBefore = new Date(Date.parse(`${monthOf(policy, 1)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(about(await runBilling(db, dayBefore, simulated), policy.policyNumber)).toEqual({ charged: [], failed: [] });

    const first = about(await runBilling(db, monthOf(policy, 1), simulated), policy.policyNumber);
    expect(first).toEqual({
      charged: [
        { policy_number: policy.policyNumber, period_start: monthOf(policy, 1), amount_cents: policy.premiumCents, charge_id: expect.stringMatching(/^ch_/) },
      ],
      failed: [],
    });
    // The same day again: nothing more.
    expect(about(await runBilling(db, monthOf(policy, 1), simulated), policy.policyNumber).charged).toEqual([]);
    // Two months later at once (the cron did not run): both months, each once.
    const later = about(await runBilling(db, monthOf(policy, 3), simulated), policy.policyNumber);
    expect(later.charged.map((item) => item.period_start)).toEqual([monthOf(policy, 2), monthOf(policy, 3)]);
    expect(await chargesOfSubject(policy.policyNumber)).toHaveLength(3);
    const rows = await db.select().from(billingCharges).where(eq(billingCharges.policyId, policy.id));
    expect(rows.map((row) => [row.periodStart, row.status, row.amountCents])).toEqual(
      [1, 2, 3].map((index) => [monthOf(policy, index), "succeeded", policy.premiumCents]),
    );

    const upfront = await insertBarePolicy();
    const [bare] = await db.select().from(policies).where(eq(policies.id, upfront));
    const run = await runBilling(db, "2030-01-01", simulated);
    expect(about(run, bare.policyNumber)).toEqual({ charged: [], failed: [] });
  });

  it("stops at the coverage end: a year's coverage is twelve payments in all; canceled and expired policies are not charged", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "bill-end");
    const db = await getDb();
    expect(about(await runBilling(db, "2031-01-01", simulated), policy.policyNumber).charged).toHaveLength(11);
    const other = await monthlyPolicy(p, "bill-canceled");
    await db.update(policies).set({ status: "canceled" }).where(eq(policies.id, other.id));
    expect(about(await runBilling(db, "2031-01-01", simulated), other.policyNumber)).toEqual({ charged: [], failed: [] });
  });

  it("a month is charged once even when a revision moves the coverage dates", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "bill-revised");
    const db = await getDb();
    await runBilling(db, monthOf(policy, 1), simulated);
    // The coverage now starts a month later: its month 1 (the old month 2's date) was already charged.
    const later = monthOf(policy, 1);
    await db.update(policies).set({ coverageStartDate: later }).where(eq(policies.id, policy.id));
    const [revised] = await db.select().from(policies).where(eq(policies.id, policy.id));
    expect(about(await runBilling(db, monthOf(revised, 1), simulated), policy.policyNumber).charged).toEqual([]);
    expect(about(await runBilling(db, monthOf(revised, 2), simulated), policy.policyNumber).charged).toEqual([
      expect.objectContaining({ period_start: monthOf(revised, 2) }),
    ]);
  });

  it("a retried job never charges twice: a month whose charge was taken but not recorded is completed with that charge", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "bill-retry");
    const db = await getDb();
    const methodId = (await storedMethodOf(db, policy.id)) as string;
    // The first attempt died after the processor charged and before the row was completed.
    const [row] = await db
      .insert(billingCharges)
      .values({ policyId: policy.id, kind: "period", periodIndex: 1, periodStart: monthOf(policy, 1), amountCents: policy.premiumCents })
      .returning();
    const taken = await simulated.charge({
      idempotencyKey: periodKey(policy.policyNumber, 1),
      amountCents: policy.premiumCents,
      currency: "usd",
      description: "first attempt",
      metadata: { subject: policySubject(policy.policyNumber) },
      methodId,
    });
    const retried = about(await runBilling(db, monthOf(policy, 1), simulated), policy.policyNumber);
    expect(retried.charged).toEqual([expect.objectContaining({ period_start: monthOf(policy, 1), charge_id: taken.chargeId })]);
    expect(await chargesOfSubject(policy.policyNumber)).toHaveLength(1);
    const [done] = await db.select().from(billingCharges).where(eq(billingCharges.id, row.id));
    expect(done).toMatchObject({ status: "succeeded", processorChargeId: taken.chargeId });
  });

  it("two runs at once charge each month once and report it once", async () => {
    const p = await partner();
    const a = await monthlyPolicy(p, "bill-race-a");
    const b = await monthlyPolicy(p, "bill-race-b");
    const db = await getDb();
    const asOf = monthOf(a, 2);
    const runs = await Promise.all([runBilling(db, asOf, simulated), runBilling(db, asOf, new SimulatedProcessor())]);
    for (const policy of [a, b]) {
      const charged = runs.flatMap((run) => about(run, policy.policyNumber).charged).map((item) => item.period_start);
      expect(charged.sort()).toEqual([monthOf(policy, 1), monthOf(policy, 2)]);
      expect(await chargesOfSubject(policy.policyNumber)).toHaveLength(2);
    }
  });

  it("a processor that cannot take payment leaves the month pending for the next run, which charges it", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "bill-unavailable");
    const db = await getDb();
    const down = about(await runBilling(db, monthOf(policy, 1), new NotConfiguredProcessor()), policy.policyNumber);
    expect(down).toEqual({
      charged: [],
      failed: [
        expect.objectContaining({
          period_start: monthOf(policy, 1),
          reason: FAILURE_REASONS.processorError,
          message: expect.stringContaining("no payment processor"),
        }),
      ],
    });
    expect(await db.select().from(delinquencies).where(eq(delinquencies.policyId, policy.id))).toEqual([]);
    const [pending] = await db.select().from(billingCharges).where(eq(billingCharges.policyId, policy.id));
    expect(pending.status).toBe("pending");
    const up = about(await runBilling(db, monthOf(policy, 1), simulated), policy.policyNumber);
    expect(up.charged).toHaveLength(1);
    expect(await chargesOfSubject(policy.policyNumber)).toHaveLength(1);
  });

  it("the daily job bills as of today", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "bill-job");
    const db = await getDb();
    // Coverage that started on the first of the month two months ago: months 1 and 2 are due today.
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 2, 1)).toISOString().slice(0, 10);
    await db.update(policies).set({ coverageStartDate: start, status: "active" }).where(eq(policies.id, policy.id));
    await db.transaction((tx) => addJob(tx, billingRun, {}));
    await runDueJobs();
    const rows = await db.select().from(billingCharges).where(eq(billingCharges.policyId, policy.id));
    expect(rows.map((row) => [row.periodStart, row.status]).sort()).toEqual([
      [periodStart(start, 1), "succeeded"],
      [periodStart(start, 2), "succeeded"],
    ]);
  });

  it("a monthly policy without a stored card is reported, not charged and not recorded", async () => {
    const id = await insertBarePolicy();
    const db = await getDb();
    const number = formatPolicyNumber(1998, 700_000 + id);
    await db.update(policies).set({ cadence: "monthly", policyNumber: number, coverageStartDate: "2026-12-01" }).where(eq(policies.id, id));
    const run = about(await runBilling(db, "2027-01-05", simulated), number);
    expect(run.failed).toEqual([{ policy_number: number, period_start: "2027-01-01", amount_cents: 26250, reason: FAILURE_REASONS.noPaymentMethod }]);
    expect(await db.select().from(billingCharges).where(eq(billingCharges.policyId, id))).toEqual([]);
  });
});
