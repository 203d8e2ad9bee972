import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import { auditLog } from "../../audit/audit-log.table";
import { SimulatedProcessor } from "../../payments/simulated-processor";
import { billingPartnersOfThisFile, monthlyPolicy, monthOf } from "../billing-test-helpers";
import { BILLING_MESSAGES } from "../messages";
import { policySubject, runBilling } from "../run";

const partner = billingPartnersOfThisFile();
const simulated = new SimulatedProcessor();

async function caller(user: { role: "operator" | "account_manager" } | null = { role: "operator" }) {
  const base = { db: await getDb(), log: logger(), requestId: "test" };
  return consoleRouter.createCaller({ ...base, user: user && { id: 1, email: "staff@example.com", role: user.role } });
}

/** A monthly policy whose first charged month was declined (an open delinquency). */
async function delinquentPolicy(id: string) {
  const p = await partner();
  const policy = await monthlyPolicy(p, id);
  await simulated.failNext(policySubject(policy.policyNumber));
  await runBilling(await getDb(), monthOf(policy, 1), simulated);
  return { p, policy };
}

describe("the console's billing (docs/decisions.md, Billing and delinquencies; decisions §12)", () => {
  it("shows a policy's charges, card and delinquencies to both roles", async () => {
    const { policy } = await delinquentPolicy("con-bill");
    const billing = await (await caller({ role: "account_manager" })).billing.policy({ policyId: policy.id });
    expect(billing).toMatchObject({
      policy_id: policy.id,
      policy_number: policy.policyNumber,
      cadence: "monthly",
      premium_cents: policy.premiumCents,
      payment_method: { brand: "visa", last4: "4242" },
      charges: [
        {
          kind: "period",
          period_start: monthOf(policy, 1),
          amount_cents: policy.premiumCents,
          status: "declined",
          processor_charge_id: expect.stringMatching(/^ch_/),
          decline_code: "card_declined",
        },
      ],
      delinquencies: [{ delinquency_id: expect.stringMatching(/^delinquency_\d+$/), status: "active", amount_cents: policy.premiumCents, resolved_at: null }],
    });
    // The next month after the one already charged (the run was ahead of today).
    expect(billing.next_charge_on).toBe(monthOf(policy, 2));
    // Only what the allowlist names: never the stored card's processor token.
    expect(JSON.stringify(billing)).not.toContain("simtok_");
  });

  it("lists delinquencies by status and owner, newest first", async () => {
    const { p, policy } = await delinquentPolicy("con-list");
    const other = await delinquentPolicy("con-list-other");
    const c = await caller({ role: "account_manager" });
    const mine = await c.billing.delinquencies({ owner: p.owner.slug.toUpperCase() });
    expect(mine).toMatchObject([
      { policy_number: policy.policyNumber, owner_slug: p.owner.slug, owner_name: p.owner.name, status: "active", policy_id: policy.id },
    ]);
    expect((await c.billing.delinquencies({ status: "active" })).map((row) => row.policy_number)).toEqual(
      expect.arrayContaining([policy.policyNumber, other.policy.policyNumber]),
    );
    expect(await c.billing.delinquencies({ owner: p.owner.slug, status: "resolved" })).toEqual([]);
    await expect(c.billing.delinquencies({ status: "late" as "active" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("an operator settles: resolved, audited with who and before/after", async () => {
    const { policy } = await delinquentPolicy("con-settle");
    const settled = await (await caller()).billing.settle({ policyId: policy.id });
    expect(settled).toMatchObject({ policy_number: policy.policyNumber, settled_cents: policy.premiumCents });
    const billing = await (await caller()).billing.policy({ policyId: policy.id });
    expect(billing.delinquencies[0]).toMatchObject({
      status: "resolved",
      amount_cents: 0,
      settled_cents: policy.premiumCents,
      resolved_at: expect.any(String),
    });
    expect(billing.charges[0]).toMatchObject({ kind: "settlement", status: "succeeded", period_start: null });
    const audit = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.settle"), eq(auditLog.subjectId, String(policy.id))));
    expect(audit).toMatchObject([{ actorLabel: "staff@example.com", actorRole: "operator", requestId: "test", after: { status: "resolved" } }]);
  });

  it("refuses: account manager cannot settle, anonymous nothing, unknown policy not found, a declined settlement a conflict", async () => {
    const { policy } = await delinquentPolicy("con-refuse");
    await expect((await caller({ role: "account_manager" })).billing.settle({ policyId: policy.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await caller(null)).billing.settle({ policyId: policy.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await caller(null)).billing.policy({ policyId: policy.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await caller(null)).billing.delinquencies({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await caller()).billing.policy({ policyId: 2_000_000_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await caller()).billing.settle({ policyId: 2_000_000_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await simulated.failNext(policySubject(policy.policyNumber));
    await expect((await caller()).billing.settle({ policyId: policy.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: BILLING_MESSAGES.settleDeclined,
    });
    const billing = await (await caller()).billing.policy({ policyId: policy.id });
    expect(billing.delinquencies).toMatchObject([{ status: "active", amount_cents: policy.premiumCents }]);
    const audit = await (await getDb())
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(policy.id)));
    expect(audit.filter((row) => row.action === "billing.settle")).toEqual([]);
  });
});
