import { and, desc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auditLog } from "../features/audit/audit-log.table";
import { delinquencies } from "../features/billing/billing.table";
import { billingPartnersOfThisFile, monthlyPolicy, monthOf } from "../features/billing/billing-test-helpers";
import { BILLING_MESSAGES } from "../features/billing/messages";
import { policies } from "../features/policies/policies.table";
import { insertBarePolicy } from "../features/policies/policy-test-helpers";
import { resetConfig } from "../server/config";
import { getDb } from "../server/db/client";
import { admin } from "./admin-test-helpers";

afterEach(() => vi.restoreAllMocks());

const partner = billingPartnersOfThisFile();

async function asProduction<T>(run: () => Promise<T>): Promise<T> {
  process.env.APP_ENV = "production";
  resetConfig();
  try {
    return await run();
  } finally {
    process.env.APP_ENV = "staging";
    resetConfig();
  }
}

describe("npm run admin -- billing … (decisions §4, §11)", () => {
  it("fail-next, run --as-of, settle: a declined month, its delinquency, then settled", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "cli-bill");
    expect(await admin("billing", "fail-next", "--policy", policy.policyNumber)).toMatchObject({ code: 0, out: { policy_number: policy.policyNumber } });
    const marked = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.fail_next"), eq(auditLog.subjectId, policy.policyNumber)));
    expect(marked).toMatchObject([{ actorLabel: expect.stringMatching(/^cli:/), after: { policy_number: policy.policyNumber } }]);

    const run = await admin("billing", "run", "--as-of", monthOf(policy, 1));
    expect(run.code).toBe(0);
    expect(Object.keys(run.out).sort()).toEqual(["charged", "failed"]);
    const runs = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.run"), eq(auditLog.subjectId, monthOf(policy, 1))))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(runs).toMatchObject([
      {
        actorLabel: expect.stringMatching(/^cli:/),
        after: { as_of: monthOf(policy, 1), charged: (run.out.charged as unknown[]).length, failed: (run.out.failed as unknown[]).length },
      },
    ]);
    const [open] = await (await getDb()).select().from(delinquencies).where(eq(delinquencies.policyId, policy.id));
    expect((run.out.failed as Array<{ policy_number: string }>).filter((item) => item.policy_number === policy.policyNumber)).toEqual([
      {
        policy_number: policy.policyNumber,
        period_start: monthOf(policy, 1),
        amount_cents: policy.premiumCents,
        reason: "card_declined",
        delinquency_id: `delinquency_${open.id}`,
      },
    ]);

    const next = await admin("billing", "run", "--as-of", monthOf(policy, 2));
    expect((next.out.charged as Array<Record<string, unknown>>).filter((item) => item.policy_number === policy.policyNumber)).toEqual([
      { policy_number: policy.policyNumber, period_start: monthOf(policy, 2), amount_cents: policy.premiumCents, charge_id: expect.stringMatching(/^ch_/) },
    ]);

    expect(await admin("billing", "settle", "--policy", policy.policyNumber)).toMatchObject({
      code: 0,
      out: { policy_number: policy.policyNumber, delinquency_id: `delinquency_${open.id}` },
    });
    const audit = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.settle"), eq(auditLog.subjectId, String(policy.id))));
    expect(audit).toMatchObject([{ actorLabel: expect.stringMatching(/^cli:/) }]);
    // Nothing outstanding any more: the policy number alone.
    expect(await admin("billing", "settle", "--policy", policy.policyNumber)).toEqual({ code: 0, out: { policy_number: policy.policyNumber }, err: "" });
  });

  it("settle that is declined exits non-zero with the reason and leaves the delinquency open", async () => {
    const p = await partner();
    const policy = await monthlyPolicy(p, "cli-bill-declined");
    await admin("billing", "fail-next", "--policy", policy.policyNumber);
    await admin("billing", "run", "--as-of", monthOf(policy, 1));
    await admin("billing", "fail-next", "--policy", policy.policyNumber);
    const settle = await admin("billing", "settle", "--policy", policy.policyNumber);
    expect(settle).toMatchObject({ code: 1, out: {} });
    expect(settle.err).toContain(BILLING_MESSAGES.settleDeclined);
    expect(await (await getDb()).select().from(delinquencies).where(eq(delinquencies.policyId, policy.id))).toMatchObject([{ status: "active" }]);
  });

  it("refuses bad input with one line on stderr and changes nothing", async () => {
    const bad = await admin("billing", "run", "--as-of", "2027-02-30");
    expect(bad).toMatchObject({ code: 1, out: {} });
    expect(bad.err).toContain(BILLING_MESSAGES.asOfFormat);
    expect((await admin("billing", "fail-next")).err).toContain("--policy is required");
    expect((await admin("billing", "fail-next", "--policy", "PIS-0000-000000")).err).toContain(BILLING_MESSAGES.policyNotFound);
    expect((await admin("billing", "settle", "--policy", "PIS-0000-000000")).err).toContain(BILLING_MESSAGES.policyNotFound);
    const upfront = await insertBarePolicy();
    const [row] = await (await getDb()).select().from(policies).where(eq(policies.id, upfront));
    const notMonthly = await admin("billing", "fail-next", "--policy", row.policyNumber);
    expect(notMonthly).toMatchObject({ code: 1 });
    expect(notMonthly.err).toContain(BILLING_MESSAGES.notMonthly);
  });

  it("production refuses another date than today and fail-next", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const early = await asProduction(() => admin("billing", "run", "--as-of", "2099-01-01"));
    expect(early).toMatchObject({ code: 1, out: {} });
    expect(early.err).toContain(BILLING_MESSAGES.asOfProduction);
    const failNext = await asProduction(() => admin("billing", "fail-next", "--policy", "PIS-2026-000001"));
    expect(failNext).toMatchObject({ code: 1 });
    expect(failNext.err).toContain(BILLING_MESSAGES.failNextProduction);
    // Today is allowed (production has no processor yet: nothing is charged, months stay pending).
    const now = await asProduction(() => admin("billing", "run", "--as-of", today));
    expect(now.code).toBe(0);
  });
});
