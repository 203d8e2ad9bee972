import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { appErrorOf, fieldMessagesOf } from "@/server/errors";
import { logger } from "@/server/log";
import { auditLog } from "../../audit/audit-log.table";
import { enrollmentPartnersOfThisFile } from "../policy-test-helpers";
import { eventsOf, issuedPolicy, policyRowOf, unitOf } from "../revisions/revision-test-helpers";

const partner = enrollmentPartnersOfThisFile();

async function caller(role: "operator" | "account_manager" | null = "operator") {
  const base = { db: await getDb(), log: logger(), requestId: "req-test" };
  return consoleRouter.createCaller({ ...base, user: role && { id: 1, email: `${role}@example.com`, role } });
}

async function auditOf(policyId: number) {
  const db = await getDb();
  return db
    .select()
    .from(auditLog)
    .where(eq(auditLog.subjectId, String(policyId)));
}

describe("console policy actions (docs/decisions.md, Policies: revisions and cancellation; decisions §12)", () => {
  it("an operator revises: the page answers the new state, its revision (before/after) and status history; the audit row names them", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "con-1");
    const u2 = await unitOf(p.owner.id, "u2");
    const staff = await caller("operator");
    const page = await staff.policies.revise({ id: policy.id, coverage_amount_cents: 170000, unit_id: u2.id, note: "Typo at enrollment" });
    expect(page).toMatchObject({ coverage_amount_cents: 170000, unit_name: "102", unit_external_id: "u2", status: "upcoming" });
    expect(page.revisions).toHaveLength(1);
    expect(page.revisions[0]).toMatchObject({
      actor: "console:operator@example.com",
      note: "Typo at enrollment",
      before: { coverage_amount_cents: 150000, unit: { name: "101" } },
      after: { coverage_amount_cents: 170000, unit: { name: "102" } },
    });
    expect(page.status_history.map((c) => [c.from_status, c.to_status, c.actor])).toEqual([[null, "upcoming", "system:issuance"]]);
    expect(page.building_units.map((u) => u.external_id)).toEqual(["u1", "u2"]);
    expect(page.documents.length).toBeGreaterThanOrEqual(1);
    const [audit] = await auditOf(policy.id);
    expect(audit).toMatchObject({
      action: "policies.revise",
      actorLabel: "operator@example.com",
      actorRole: "operator",
      requestId: "req-test",
      before: { coverage_amount_cents: 150000 },
      after: { coverage_amount_cents: 170000, note: "Typo at enrollment" },
    });
  });

  it("answers field errors as UNPROCESSABLE_CONTENT beside their field, a closed policy as CONFLICT, and changes nothing", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "con-2");
    const staff = await caller("operator");
    const failure = await staff.policies.revise({ id: policy.id, coverage_amount_cents: -1, coverage_end_date: "2026-13-01" }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    const known = appErrorOf(failure);
    const fields = known ? fieldMessagesOf(known) : {};
    expect(Object.keys(fields).sort()).toEqual(["coverage_amount_cents", "coverage_end_date"]);
    await expect(staff.policies.revise({ id: policy.id })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await expect(staff.policies.revise({ id: 2_000_000_000, coverage_amount_cents: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await policyRowOf(policy.id)).toEqual(policy);
    await staff.policies.cancel({ id: policy.id, reason: "Duplicate policy" });
    await expect(staff.policies.cancel({ id: policy.id })).rejects.toMatchObject({ code: "CONFLICT", message: "Policy is already canceled" });
    await expect(staff.policies.revise({ id: policy.id, coverage_amount_cents: 1000 })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await auditOf(policy.id)).map((a) => a.action)).toEqual(["policies.cancel"]);
  });

  it("an operator cancels with a reason: policy.canceled, the reason on the page's status history and in the audit log", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "con-3");
    const before = (await eventsOf(policy.policyNumber)).length;
    const page = await (await caller("operator")).policies.cancel({ id: policy.id, reason: "Renter asked to cancel" });
    expect(page.status).toBe("canceled");
    expect(page.status_history.at(-1)).toMatchObject({
      from_status: "upcoming",
      to_status: "canceled",
      reason: "Renter asked to cancel",
      actor: "console:operator@example.com",
    });
    expect((await eventsOf(policy.policyNumber)).slice(before).map((e) => e.event)).toEqual(["policy.canceled"]);
    const [audit] = await auditOf(policy.id);
    expect(audit).toMatchObject({
      action: "policies.cancel",
      actorLabel: "operator@example.com",
      after: { status: "canceled", reason: "Renter asked to cancel" },
    });
  });

  it("an account manager may read but neither revise nor cancel (FORBIDDEN); a visitor gets UNAUTHORIZED; nothing changes", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "con-4");
    const manager = await caller("account_manager");
    await expect(manager.policies.detail({ id: policy.id })).resolves.toMatchObject({ id: policy.id });
    await expect(manager.policies.revise({ id: policy.id, coverage_amount_cents: 160000 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(manager.policies.cancel({ id: policy.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const visitor = await caller(null);
    await expect(visitor.policies.revise({ id: policy.id, coverage_amount_cents: 160000 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(visitor.policies.cancel({ id: policy.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await policyRowOf(policy.id)).toEqual(policy);
    expect(await auditOf(policy.id)).toEqual([]);
  });

  it("searches by owner slug and product (an unknown owner is NOT_FOUND)", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "con-5");
    const other = await partner();
    await issuedPolicy(other, "con-6");
    const staff = await caller("account_manager");
    expect((await staff.policies.search({ owner: p.owner.slug })).map((r) => r.id)).toEqual([policy.id]);
    expect((await staff.policies.search({ owner: p.owner.slug, product_type: "security_deposit_insurance" })).map((r) => r.id)).toEqual([policy.id]);
    expect(await staff.policies.search({ owner: p.owner.slug, product_type: "renter_guarantee_insurance" })).toEqual([]);
    await expect(staff.policies.search({ owner: "no-such-owner" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
