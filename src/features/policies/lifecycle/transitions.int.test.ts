import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { properties } from "../../roster/roster.table";
import { RENEWAL_BLOCKING_REASONS as R } from "../messages";
import { policies } from "../policies.table";
import { enrollmentPartnersOfThisFile } from "../policy-test-helpers";
import { changePolicyStatus, statusHistoryOf } from "../status/change-status";
import { issuedPolicy, statusEventsOf, subscribeToStatusEvents } from "./lifecycle-test-helpers";
import { sweepDuePolicies } from "./sweep";

const partner = enrollmentPartnersOfThisFile();

async function ready() {
  const p = await partner();
  await subscribeToStatusEvents(p);
  return p;
}

describe("every status change and its event payload (docs/policies.md; spec Policy payload)", () => {
  it("pending → upcoming emits policy.updated with the new status", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "tr-1", { status: "pending" });
    const db = await getDb();
    const changed = await db.transaction((tx) => changePolicyStatus(tx, policy.id, "pending", "upcoming", { actor: "system:issuance" }));
    expect(changed?.status).toBe("upcoming");
    const [event] = await statusEventsOf([policy.policyNumber]);
    expect(event.event).toBe("policy.updated");
    expect(event.body.data.insurance_policy).toMatchObject({ status: "upcoming", renewal_eligibility_status: "eligible", blocking_reasons: [] });
  });

  it("→ canceled emits policy.canceled carrying no reason, blocked with its reason; the reason stays internal in the history", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "tr-2", { status: "active", coverageStartDate: "2026-01-01" });
    const db = await getDb();
    await db.transaction((tx) => changePolicyStatus(tx, policy.id, "active", "canceled", { actor: "console:ops@example.com", reason: "renter moved out" }));
    const [event] = await statusEventsOf([policy.policyNumber]);
    expect(event.event).toBe("policy.canceled");
    expect(event.body.data.insurance_policy).toEqual({
      id: `policy_${policy.id}`,
      policy_number: policy.policyNumber,
      status: "canceled",
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 150000,
      coverage_start_date: "2026-01-01",
      coverage_end_date: "2027-11-30",
      admin_policy_url: `http://localhost:3999/console/policies/${policy.id}`,
      source_prospect_id: "tr-2",
      renewal_eligibility_status: "blocked",
      blocking_reasons: [R.policyCanceled],
    });
    expect(JSON.stringify(event.body)).not.toContain("renter moved out");
    expect((await statusHistoryOf(db, policy.id)).at(-1)).toMatchObject({ fromStatus: "active", toStatus: "canceled", reason: "renter moved out" });
  });

  it("a guarantee keeps product_version in its status events and is blocked where the building stopped offering it", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "tr-3", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    const db = await getDb();
    await db.update(policies).set({ productType: "renter_guarantee_insurance", productVersion: "2025.12.01" }).where(eq(policies.id, policy.id));
    await db.update(properties).set({ guaranteeEnabled: false }).where(eq(properties.id, policy.propertyId));
    await sweepDuePolicies(db, "2026-07-01", { actor: "system:test" });
    const [event] = await statusEventsOf([policy.policyNumber]);
    expect(event.event).toBe("policy.expired");
    expect(event.body.data.insurance_policy).toMatchObject({
      status: "expired",
      product_type: "renter_guarantee_insurance",
      product_version: "2025.12.01",
      renewal_eligibility_status: "blocked",
      blocking_reasons: [R.policyExpired, R.guaranteeNotEnabled],
    });
  });

  it("a change that lost a race answers undefined and emits nothing", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "tr-4", { status: "active" });
    const db = await getDb();
    const [first, second] = await Promise.all([
      db.transaction((tx) => changePolicyStatus(tx, policy.id, "active", "expired", { actor: "system:a" })),
      db.transaction((tx) => changePolicyStatus(tx, policy.id, "active", "expired", { actor: "system:b" })),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await statusEventsOf([policy.policyNumber])).toHaveLength(1);
    expect((await statusHistoryOf(db, policy.id)).filter((h) => h.toStatus === "expired")).toHaveLength(1);
  });
});
