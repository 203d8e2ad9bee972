import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auditLog } from "../features/audit/audit-log.table";
import { enrollmentPartnersOfThisFile } from "../features/policies/policy-test-helpers";
import { eventsOf, issuedPolicy, policyRowOf } from "../features/policies/revisions/revision-test-helpers";
import { statusHistoryOf } from "../features/policies/status/change-status";
import { getDb } from "../server/db/client";
import { admin } from "./admin-test-helpers";

afterEach(() => vi.restoreAllMocks());

const partner = enrollmentPartnersOfThisFile();

async function auditOf(policyId: number) {
  const db = await getDb();
  return db
    .select()
    .from(auditLog)
    .where(eq(auditLog.subjectId, String(policyId)));
}

describe("npm run admin -- policy revise / policy cancel (decisions §4)", () => {
  it("revises a policy and prints it in policy list's shape, audited as the CLI", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "clir-1");
    const revised = await admin(
      "policy",
      "revise",
      "--policy",
      policy.policyNumber,
      "--coverage-amount-cents",
      "175000",
      "--start-date",
      "2030-01-01",
      "--end-date",
      "2030-12-31",
      "--unit-external-id",
      "u2",
      "--note",
      "Corrected from the lease",
    );
    expect(revised).toMatchObject({ code: 0, err: "" });
    expect(revised.out).toEqual({
      id: policy.id,
      policy_number: policy.policyNumber,
      status: "upcoming",
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 175000,
      coverage_start_date: "2030-01-01",
      coverage_end_date: "2030-12-31",
      source_prospect_id: "clir-1",
    });
    const [audit] = await auditOf(policy.id);
    expect(audit).toMatchObject({ action: "policies.revise", actorLabel: expect.stringMatching(/^cli:.+/), actorUserId: null });
    expect((await eventsOf(policy.policyNumber)).at(-1)?.event).toBe("policy.updated");
  });

  it("cancels with a reason kept internally, and refuses a second cancel with a one-line 409", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "clir-2");
    const canceled = await admin("policy", "cancel", "--policy", policy.policyNumber, "--reason", "Fraud review");
    expect(canceled).toMatchObject({ code: 0, err: "", out: { id: policy.id, status: "canceled" } });
    const history = await statusHistoryOf(await getDb(), policy.id);
    expect(history.at(-1)).toMatchObject({ toStatus: "canceled", reason: "Fraud review", actor: expect.stringMatching(/^cli:.+/) });
    const again = await admin("policy", "cancel", "--policy", policy.policyNumber);
    expect(again.code).toBe(1);
    expect(again.err.trim()).toBe("Policy is already canceled (conflict)");
    expect((await auditOf(policy.id)).map((a) => a.action)).toEqual(["policies.cancel"]);
  });

  it("refuses an unknown policy, a missing --policy, a non-numeric amount and invalid values, changing nothing", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "clir-3");
    const unknown = await admin("policy", "revise", "--policy", "PIS-1900-000000", "--coverage-amount-cents", "1");
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim()).toBe("No policy PIS-1900-000000 (not_found)");
    const unknownCancel = await admin("policy", "cancel", "--policy", "PIS-1900-000000");
    expect(unknownCancel).toMatchObject({ code: 1, err: "No policy PIS-1900-000000 (not_found)\n" });
    expect(await admin("policy", "cancel")).toMatchObject({ code: 2, err: expect.stringContaining("--policy is required") });
    const words = await admin("policy", "revise", "--policy", policy.policyNumber, "--coverage-amount-cents", "lots");
    expect(words).toMatchObject({ code: 2, err: expect.stringContaining("--coverage-amount-cents must be a whole number") });
    const bad = await admin("policy", "revise", "--policy", policy.policyNumber, "--coverage-amount-cents", "0", "--end-date", "2026-02-30");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("Revision is invalid (invalid)");
    expect(bad.err).toContain("coverage_amount_cents: Coverage amount must be a positive whole number of cents");
    expect(bad.err).toContain("coverage_end_date: Must be a date in the form YYYY-MM-DD");
    const nothing = await admin("policy", "revise", "--policy", policy.policyNumber);
    expect(nothing).toMatchObject({ code: 1, err: expect.stringContaining("Nothing to change") });
    expect(await policyRowOf(policy.id)).toEqual(policy);
    expect(await auditOf(policy.id)).toEqual([]);
  });
});
