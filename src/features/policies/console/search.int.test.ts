import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import { buildPolicyArchive } from "../documents/archive";
import { sampleDeclarations } from "../documents/document-test-helpers";
import { storePolicyArchive } from "../documents/storage";
import { adminPolicyUrl } from "../payload";
import { policies } from "../policies.table";
import { insertBarePolicy } from "../policy-test-helpers";

async function caller(user: { role: "operator" | "account_manager" } | null = { role: "operator" }) {
  const base = { db: await getDb(), log: logger(), requestId: "test" };
  return consoleRouter.createCaller({ ...base, user: user && { id: 1, email: "staff@example.com", role: user.role } });
}

async function numberOf(id: number) {
  const db = await getDb();
  const [row] = await db.select({ number: policies.policyNumber }).from(policies).where(eq(policies.id, id));
  return row.number;
}

describe("the console's policy pages (decisions §11 admin_policy_url, §12)", () => {
  it("admin_policy_url is the console page of the policy, by its numeric id", async () => {
    const id = await insertBarePolicy();
    expect(adminPolicyUrl(id, "https://pis.example")).toBe(`https://pis.example/console/policies/${id}`);
  });

  it("shows a policy with its owner, building, unit and every archive generation, newest first", async () => {
    const id = await insertBarePolicy();
    const db = await getDb();
    const first = await db.transaction(async (tx) => storePolicyArchive(tx, { policyId: id, archive: await buildPolicyArchive(sampleDeclarations()) }));
    const second = await db.transaction(async (tx) => storePolicyArchive(tx, { policyId: id, archive: await buildPolicyArchive(sampleDeclarations()) }));
    const detail = await (await caller({ role: "account_manager" })).policies.detail({ id });
    expect(detail).toMatchObject({
      id,
      policy_number: await numberOf(id),
      status: "active",
      product_type: "security_deposit_insurance",
      product_version: null,
      coverage_amount_cents: 150000,
      premium_cents: 26250,
      cadence: "upfront",
      coverage_start_date: "2026-12-01",
      coverage_end_date: "2027-11-30",
      renter: null,
      application_id: null,
    });
    expect(detail.address.line_one).toBeTruthy();
    expect(detail.documents.map((d) => d.url)).toEqual([second.url, first.url]);
  });

  it("answers not found for an id that is no policy, and nothing to a visitor who is not signed in", async () => {
    await expect((await caller()).policies.detail({ id: 2_000_000_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await caller(null)).policies.detail({ id: await insertBarePolicy() })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await caller(null)).policies.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("searches by policy number (part of it, wildcards taken literally) and status, newest first, with keyset paging", async () => {
    const ids = [await insertBarePolicy(), await insertBarePolicy(), await insertBarePolicy()];
    const db = await getDb();
    await db.update(policies).set({ status: "canceled" }).where(eq(policies.id, ids[1]));
    const staff = await caller();
    const number = await numberOf(ids[2]);
    expect((await staff.policies.search({ query: number.slice(-6) })).map((p) => p.id)).toContain(ids[2]);
    expect(await staff.policies.search({ query: "%" })).toEqual([]);
    expect(await staff.policies.search({ query: "_" })).toEqual([]);
    const canceled = await staff.policies.search({ status: "canceled" });
    expect(canceled.map((p) => p.id)).toContain(ids[1]);
    expect(canceled.every((p) => p.status === "canceled")).toBe(true);
    const page = await staff.policies.search({ limit: 2 });
    expect(page).toHaveLength(2);
    expect(page[0].id).toBeGreaterThan(page[1].id);
    const next = await staff.policies.search({ limit: 2, before: page[1].id });
    expect(next.every((p) => p.id < page[1].id)).toBe(true);
  });
});
