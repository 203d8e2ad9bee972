import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { runDueJobs } from "../../test/jobs";
import { auditLog } from "../audit/audit-log.table";
import { SimulatedProcessor } from "../payments/simulated-processor";
import { emitPolicyEvent } from "../policies/events";
import { RENEWAL_BLOCKING_REASONS } from "../policies/messages";
import { type Policy, policies } from "../policies/policies.table";
import { billingCharges, delinquencies } from "./billing.table";
import { billingPartnersOfThisFile, monthlyPolicy, monthOf } from "./billing-test-helpers";
import { BILLING_MESSAGES, FAILURE_REASONS } from "./messages";
import { policySubject, runBilling } from "./run";
import { settlePolicy } from "./settle";

const partner = billingPartnersOfThisFile();
const simulated = new SimulatedProcessor();
const PMS = { pms_type: "pms_two", pms_property_id: "PP-7", pms_unit_id: "UU-7", pms_prospect_id: "RR-7" };
const cli = { cli: "tester" };

const openOf = async (policyId: number) => (await getDb()).select().from(delinquencies).where(eq(delinquencies.policyId, policyId));
const failedOf = (run: Awaited<ReturnType<typeof runBilling>>, policy: Policy) => run.failed.filter((item) => item.policy_number === policy.policyNumber);

/** The renewal fields of a `policy.updated` delivered now (the payload as partners read it). */
async function renewalSeenBy(p: Awaited<ReturnType<typeof partner>>, policy: Policy) {
  const db = await getDb();
  const [current] = await db.select().from(policies).where(eq(policies.id, policy.id));
  await db.transaction((tx) => emitPolicyEvent(tx, "policy.updated", current));
  await runDueJobs();
  const last = p.deliveredOf("policy.updated").at(-1)?.data.insurance_policy;
  return { status: last?.renewal_eligibility_status, reasons: last?.blocking_reasons };
}

describe("delinquencies (decisions §11 Billing; spec Delinquency payload)", () => {
  it("a declined month opens a delinquency → delinquency.created exactly per the payload table, and blocks renewal", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "dq-created", PMS);
    await simulated.failNext(policySubject(policy.policyNumber));
    const run = await runBilling(await getDb(), monthOf(policy, 1), simulated);
    const [open] = await openOf(policy.id);
    expect(open).toMatchObject({ status: "active", amountCents: policy.premiumCents, resolvedAt: null });
    expect(failedOf(run, policy)).toEqual([
      {
        policy_number: policy.policyNumber,
        period_start: monthOf(policy, 1),
        amount_cents: policy.premiumCents,
        reason: FAILURE_REASONS.declined,
        delinquency_id: `delinquency_${open.id}`,
      },
    ]);
    const [charge] = await (await getDb()).select().from(billingCharges).where(eq(billingCharges.policyId, policy.id));
    expect(charge).toMatchObject({ status: "declined", declineCode: "card_declined", delinquencyId: open.id });

    await runDueJobs();
    const created = p.deliveredOf("delinquency.created");
    expect(created).toEqual([
      {
        event: "delinquency.created",
        property_owner_slug: p.owner.slug,
        data: {
          delinquency: {
            id: `delinquency_${open.id}`,
            status: "active",
            amount_cents: policy.premiumCents,
            policy_number: policy.policyNumber,
            pms_property_code: "PP-7",
            pms_unit_code: "UU-7",
            pms_tenant_code: "RR-7",
            source_prospect_id: "dq-created",
          },
        },
      },
    ]);
    expect(await renewalSeenBy(p, policy)).toEqual({ status: "blocked", reasons: [RENEWAL_BLOCKING_REASONS.openDelinquency] });
  });

  it("omits source_prospect_id when the policy did not come from a partner's prospect", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "dq-no-source");
    const db = await getDb();
    await db.update(policies).set({ sourceProspectId: null }).where(eq(policies.id, policy.id));
    await simulated.failNext(policySubject(policy.policyNumber));
    await runBilling(db, monthOf(policy, 1), simulated);
    await runDueJobs();
    const [body] = p.deliveredOf("delinquency.created");
    expect(body.data.delinquency).not.toHaveProperty("source_prospect_id");
    expect(body.data.delinquency).toMatchObject({ policy_number: policy.policyNumber, status: "active" });
  });

  it("a further declined month adds to the open delinquency and emits nothing; a paid month leaves it open", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "dq-second");
    const db = await getDb();
    await simulated.failNext(policySubject(policy.policyNumber));
    await runBilling(db, monthOf(policy, 1), simulated);
    await simulated.failNext(policySubject(policy.policyNumber));
    const second = failedOf(await runBilling(db, monthOf(policy, 2), simulated), policy);
    const rows = await openOf(policy.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "active", amountCents: 2 * policy.premiumCents });
    expect(second).toEqual([expect.objectContaining({ period_start: monthOf(policy, 2), delinquency_id: `delinquency_${rows[0].id}` })]);
    const paid = await runBilling(db, monthOf(policy, 3), simulated);
    expect(paid.charged.filter((item) => item.policy_number === policy.policyNumber)).toHaveLength(1);
    expect((await openOf(policy.id))[0]).toMatchObject({ status: "active", amountCents: 2 * policy.premiumCents });
    await runDueJobs();
    expect(p.deliveredOf("delinquency.created")).toHaveLength(1);
  });

  it("two runs declining at once open one delinquency and emit delinquency.created once", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "dq-race");
    const db = await getDb();
    await simulated.failNext(policySubject(policy.policyNumber));
    await Promise.all([runBilling(db, monthOf(policy, 1), simulated), runBilling(db, monthOf(policy, 1), new SimulatedProcessor())]);
    expect(await openOf(policy.id)).toMatchObject([{ status: "active", amountCents: policy.premiumCents }]);
    await runDueJobs();
    expect(p.deliveredOf("delinquency.created")).toHaveLength(1);
  });

  it("settling charges what is outstanding → resolved, delinquency.resolved with 0 outstanding, renewal eligible again, audited", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "dq-settle", PMS);
    const db = await getDb();
    for (const index of [1, 2]) {
      await simulated.failNext(policySubject(policy.policyNumber));
      await runBilling(db, monthOf(policy, index), simulated);
    }
    const [open] = await openOf(policy.id);
    const settled = await settlePolicy(db, cli, policy.id, simulated);
    expect(settled).toEqual({
      policy_number: policy.policyNumber,
      delinquency_id: `delinquency_${open.id}`,
      settled_cents: 2 * policy.premiumCents,
      charge_id: expect.stringMatching(/^ch_/),
    });
    const [resolved] = await openOf(policy.id);
    expect(resolved).toMatchObject({ status: "resolved", amountCents: 0, settledCents: 2 * policy.premiumCents, resolvedAt: expect.any(Date) });
    const settlement = await db
      .select()
      .from(billingCharges)
      .where(and(eq(billingCharges.policyId, policy.id), eq(billingCharges.kind, "settlement")));
    expect(settlement).toMatchObject([
      { status: "succeeded", amountCents: 2 * policy.premiumCents, processorChargeId: settled.charge_id, delinquencyId: open.id },
    ]);

    await runDueJobs();
    expect(p.deliveredOf("delinquency.resolved").map((body) => body.data.delinquency)).toEqual([
      {
        id: `delinquency_${open.id}`,
        status: "resolved",
        amount_cents: 0,
        policy_number: policy.policyNumber,
        pms_property_code: "PP-7",
        pms_unit_code: "UU-7",
        pms_tenant_code: "RR-7",
        source_prospect_id: "dq-settle",
      },
    ]);
    expect(await renewalSeenBy(p, policy)).toEqual({ status: "eligible", reasons: [] });
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.settle"), eq(auditLog.subjectId, String(policy.id))));
    expect(audit).toMatchObject([
      {
        actorLabel: "cli:tester",
        subjectType: "policy",
        ownerId: policy.ownerId,
        before: { delinquency_id: `delinquency_${open.id}`, status: "active", amount_cents: 2 * policy.premiumCents },
        after: { delinquency_id: `delinquency_${open.id}`, status: "resolved", amount_cents: 0, settled_cents: 2 * policy.premiumCents },
      },
    ]);

    // Settling again: nothing open, nothing charged, nothing emitted.
    expect(await settlePolicy(db, cli, policy.id, simulated)).toEqual({ policy_number: policy.policyNumber });
    await runDueJobs();
    expect(p.deliveredOf("delinquency.resolved")).toHaveLength(1);
    // A later declined month opens a new delinquency.
    await simulated.failNext(policySubject(policy.policyNumber));
    await runBilling(db, monthOf(policy, 3), simulated);
    expect((await openOf(policy.id)).map((row) => row.status).sort()).toEqual(["active", "resolved"]);
  });

  it("a declined settlement is a clear error, kept as a declined attempt, and changes nothing else", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "dq-settle-declined");
    const db = await getDb();
    await simulated.failNext(policySubject(policy.policyNumber));
    await runBilling(db, monthOf(policy, 1), simulated);
    const [before] = await openOf(policy.id);
    await simulated.failNext(policySubject(policy.policyNumber));
    await expect(settlePolicy(db, cli, policy.id, simulated)).rejects.toMatchObject({ kind: "conflict", message: BILLING_MESSAGES.settleDeclined });
    expect(await openOf(policy.id)).toEqual([before]);
    expect(
      await db
        .select()
        .from(billingCharges)
        .where(and(eq(billingCharges.policyId, policy.id), eq(billingCharges.kind, "settlement"))),
    ).toMatchObject([{ status: "declined", declineCode: "card_declined", amountCents: policy.premiumCents, delinquencyId: before.id }]);
    expect(
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "billing.settle"), eq(auditLog.subjectId, String(policy.id)))),
    ).toEqual([]);
    await runDueJobs();
    expect(p.deliveredOf("delinquency.resolved")).toEqual([]);
    expect(await renewalSeenBy(p, policy)).toEqual({ status: "blocked", reasons: [RENEWAL_BLOCKING_REASONS.openDelinquency] });
  });
});
