import { afterEach, describe, expect, it, vi } from "vitest";
import { recordUnderwriting, startApplication, submitApplication } from "../features/enrollment/applications/service";
import { issuePolicy } from "../features/policies/issue";
import { defaultOutcome, enrollmentPartnersOfThisFile, insertGuaranteePolicyBeside } from "../features/policies/policy-test-helpers";
import { getDb } from "../server/db/client";
import { unique } from "../test/factories";
import { admin } from "./admin-test-helpers";

afterEach(() => vi.restoreAllMocks());

const partner = enrollmentPartnersOfThisFile();

describe("npm run admin -- policy list (decisions §4)", () => {
  it("prints the owner's policies, oldest first, omitting source_prospect_id when the policy has none", async () => {
    const p = await partner();
    const prospect = await p.ready("cli-1", { email: `${unique("cli")}@example.com` });
    const db = await getDb();
    const issued = await db.transaction(async (tx) => {
      const { application } = await startApplication(tx, prospect);
      await recordUnderwriting(tx, application, defaultOutcome(prospect));
      await submitApplication(tx, application, { productType: "security_deposit_insurance", cadence: "monthly" });
      return (await issuePolicy(tx, application, { paidAt: new Date("2026-11-24T15:00:00Z") })).policy;
    });
    // A policy that did not come from a prospect (no source_prospect_id).
    const bare = await insertGuaranteePolicyBeside(issued);
    // Another owner's policy never shows.
    const other = await partner();
    await other.ready("cli-2");

    const listed = await admin("policy", "list", "--owner", p.owner.slug);
    expect(listed).toMatchObject({ code: 0, err: "" });
    expect(listed.out).toEqual({
      policies: [
        {
          id: issued.id,
          policy_number: issued.policyNumber,
          status: "upcoming",
          product_type: "security_deposit_insurance",
          coverage_amount_cents: 150000,
          coverage_start_date: "2026-12-01",
          coverage_end_date: "2027-11-30",
          source_prospect_id: "cli-1",
        },
        {
          id: bare.id,
          policy_number: bare.policyNumber,
          status: "active",
          product_type: "renter_guarantee_insurance",
          coverage_amount_cents: 300000,
          coverage_start_date: "2026-01-01",
          coverage_end_date: "2026-12-31",
        },
      ],
    });
    expect(await admin("policy", "list", "--owner", other.owner.slug)).toMatchObject({ code: 0, out: { policies: [] } });
  });

  it("refuses a missing or unknown owner", async () => {
    const missing = await admin("policy", "list");
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--owner is required");
    const unknown = await admin("policy", "list", "--owner", unique("nobody"));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("No owner");
  });
});
