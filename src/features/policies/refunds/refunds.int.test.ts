import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { admin } from "../../../cli/admin-test-helpers";
import { getDb } from "../../../server/db/client";
import { queuedJobs, runDueJobs } from "../../../test/jobs";
import { auditLog } from "../../audit/audit-log.table";
import { applications } from "../../enrollment/applications/applications.table";
import { paymentCharges } from "../../payments/payments.table";
import { simulatedRefundId } from "../../payments/refund-port";
import { isoDay } from "../coverage";
import { policies } from "../policies.table";
import { enrollmentPartnersOfThisFile } from "../policy-test-helpers";
import { unearnedPremiumCents } from "./pro-rata";
import { paidPolicy, refundRowsOf } from "./refund-test-helpers";

const partner = enrollmentPartnersOfThisFile();

async function paidCents(applicationId: number | null) {
  const [row] = await (await getDb())
    .select({ amount: paymentCharges.amountCents })
    .from(applications)
    .innerJoin(paymentCharges, eq(paymentCharges.id, applications.paymentChargeId))
    .where(eq(applications.id, applicationId ?? 0));
  return row.amount;
}

describe("refunds on cancellation (decisions §18 Refunds; docs/decisions.md, Refunds, disputes and reconciliation)", () => {
  it("an upfront policy canceled before its start: the whole premium, pending, then refunded once through the simulated processor", async () => {
    const p = await partner();
    const policy = await paidPolicy(p, "ref-1");
    const paid = await paidCents(policy.applicationId);
    expect(policy.coverageStartDate > isoDay(new Date())).toBe(true);

    const canceled = await admin("policy", "cancel", "--policy", policy.policyNumber, "--reason", "Moved elsewhere");
    expect(canceled).toMatchObject({ code: 0, err: "", out: { id: policy.id, status: "canceled", refund_cents: paid } });
    const [pending] = await refundRowsOf(policy.id);
    expect(pending).toMatchObject({ status: "pending", amountCents: paid, processor: "simulated", processorRefundId: null });
    expect(pending.idempotencyKey).toBe(`refund:${policy.policyNumber}:${pending.cancellationId}`);
    expect(await queuedJobs("refund__send")).toHaveLength(1);
    const [audit] = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "policies.cancel"), eq(auditLog.subjectId, String(policy.id))));
    expect(audit.after).toMatchObject({ status: "canceled", refund_cents: paid });

    await runDueJobs();
    const [done] = await refundRowsOf(policy.id);
    expect(done).toMatchObject({ status: "succeeded", processorRefundId: simulatedRefundId(pending.idempotencyKey), failureReason: null });
    // A second cancel is refused (409) and refunds nothing more.
    expect((await admin("policy", "cancel", "--policy", policy.policyNumber)).code).toBe(1);
    expect(await refundRowsOf(policy.id)).toHaveLength(1);
  });

  it("an upfront policy canceled during its coverage refunds the unearned days only, rounded down", async () => {
    const p = await partner();
    const policy = await paidPolicy(p, "ref-2");
    const paid = await paidCents(policy.applicationId);
    const today = isoDay(new Date());
    const start = isoDay(new Date(Date.now() - 40 * 86_400_000));
    const end = isoDay(new Date(Date.now() + 324 * 86_400_000));
    await (await getDb()).update(policies).set({ status: "active", coverageStartDate: start, coverageEndDate: end }).where(eq(policies.id, policy.id));

    const canceled = await admin("policy", "cancel", "--policy", policy.policyNumber);
    // 365 days, the 41 up to and including today earned: 324 unearned.
    const expected = Math.floor((paid * 324) / 365);
    expect(expected).toBe(unearnedPremiumCents(paid, { start, end }, today));
    expect(canceled.out).toMatchObject({ status: "canceled", refund_cents: expected });
    await runDueJobs();
    expect(await refundRowsOf(policy.id)).toMatchObject([{ status: "succeeded", amountCents: expected }]);
  });

  it("a monthly policy stops billing and gets no refund", async () => {
    const p = await partner();
    const policy = await paidPolicy(p, "ref-3", "monthly");
    const canceled = await admin("policy", "cancel", "--policy", policy.policyNumber);
    expect(canceled.out).toMatchObject({ status: "canceled", refund_cents: 0 });
    expect(await refundRowsOf(policy.id)).toEqual([]);
    expect(await queuedJobs("refund__send")).toEqual([]);
    const billing = await admin("billing", "run", "--as-of", "2027-06-15");
    expect(billing.code).toBe(0);
    expect(JSON.stringify(billing.out)).not.toContain(policy.policyNumber);
  });

  it("a payment the processor refuses to refund is recorded failed with its reason, not retried", async () => {
    const p = await partner();
    const policy = await paidPolicy(p, "ref-4");
    await admin("policy", "cancel", "--policy", policy.policyNumber);
    const [row] = await refundRowsOf(policy.id);
    // The payment is no longer one the simulated processor took (as if refunded or moved elsewhere).
    await (await getDb()).update(paymentCharges).set({ status: "declined" }).where(eq(paymentCharges.id, row.paymentChargeId));
    await runDueJobs();
    expect(await refundRowsOf(policy.id)).toMatchObject([{ status: "failed", failureReason: "Only a succeeded payment can be refunded" }]);
    expect(await queuedJobs("refund__send")).toEqual([]);
  });
});
