import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/documents/[file]/route";
import { getDb } from "../../../server/db/client";
import { runDueJobs } from "../../../test/jobs";
import { auditLog } from "../../audit/audit-log.table";
import { residents } from "../../enrollment/renters/residents.table";
import { propertyOwners } from "../../owners/owners.table";
import { prospects } from "../../prospects/prospects.table";
import { properties } from "../../roster/roster.table";
import { pdfText, unzip } from "../documents/document-test-helpers";
import { policyDocuments } from "../documents/policy-documents.table";
import { archivesOfPolicy } from "../documents/storage";
import { type Policy, policies } from "../policies.table";
import { enrollmentPartnersOfThisFile, insertGuaranteePolicyBeside } from "../policy-test-helpers";
import { statusHistoryOf } from "../status/change-status";
import { policyRevisions } from "./policy-revisions.table";
import { revisePolicy } from "./revise";
import { eventsOf, issuedPolicy, policyRowOf, unitOf } from "./revision-test-helpers";

const partner = enrollmentPartnersOfThisFile();
const CLI = { cli: "tester" };
/** "Today" for these tests: the day after payment, before the coverage starts (2026-12-01). */
const NOW = new Date("2026-11-25T12:00:00Z");

async function revise(policy: Policy, input: Parameters<typeof revisePolicy>[3], now = NOW) {
  const db = await getDb();
  return db.transaction((tx) => revisePolicy(tx, CLI, policy.id, input, { now }));
}

async function declarationsText(url: string): Promise<string> {
  const file = url.split("/").pop() as string;
  const response = await GET(new Request(url), { params: Promise.resolve({ file }) });
  expect(response.status).toBe(200);
  const entries = unzip(new Uint8Array(await response.arrayBuffer()));
  const name = Object.keys(entries).find((path) => path.endsWith("declarations.pdf")) as string;
  return pdfText(entries[name]);
}

async function countOf(table: typeof policyRevisions | typeof auditLog, where: ReturnType<typeof eq>) {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row.n;
}

describe("policy revisions (docs/decisions.md, Policies: revisions and cancellation; decisions §11 Revisions; spec Ordering and retries)", () => {
  it("a new coverage amount → policy.updated with the new state, a new archive under a new key (policy.documents_updated), the old link keeping its old content", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "rev-1");
    const [firstArchive] = await archivesOfPolicy(await getDb(), policy.id);
    const before = (await eventsOf(policy.policyNumber)).length;

    const result = await revise(policy, { coverage_amount_cents: 180000, note: "Landlord raised the deposit" });
    expect(result.events).toEqual(["policy.updated"]);
    // The premium is kept (docs/decisions.md, Policies: revisions and cancellation).
    expect(result.policy).toMatchObject({ coverageAmountCents: 180000, premiumCents: policy.premiumCents, status: "upcoming" });

    const updated = (await eventsOf(policy.policyNumber)).slice(before);
    expect(updated.map((e) => e.event)).toEqual(["policy.updated"]);
    // spec Policy payload: the new state; product_version omitted (deposit product); renewal fields present; no policy_url.
    expect(updated[0].data).toEqual({
      id: `policy_${policy.id}`,
      policy_number: policy.policyNumber,
      status: "upcoming",
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 180000,
      coverage_start_date: "2026-12-01",
      coverage_end_date: "2027-11-30",
      admin_policy_url: `http://localhost:3999/console/policies/${policy.id}`,
      source_prospect_id: "rev-1",
      renewal_eligibility_status: "eligible",
      blocking_reasons: [],
    });

    await runDueJobs(); // the documents job (added in the revision's transaction) and the policy.updated delivery
    await runDueJobs();
    const all = await eventsOf(policy.policyNumber);
    const documents = all.slice(before).filter((e) => e.event === "policy.documents_updated");
    expect(documents).toHaveLength(1);
    const newUrl = String(documents[0].data.policy_url);
    expect(newUrl).not.toBe(firstArchive.url);
    expect(documents[0].data).toMatchObject({ coverage_amount_cents: 180000, renewal_eligibility_status: "eligible", blocking_reasons: [] });
    expect(await declarationsText(newUrl)).toContain("$1,800.00");
    const old = await declarationsText(firstArchive.url);
    expect(old).toContain("$1,500.00");
    expect(old).not.toContain("$1,800.00");
    // Both were delivered to the partner's receiver.
    const delivered = p.delivered().map((b) => b.event);
    expect(delivered).toContain("policy.updated");
    expect(delivered.filter((e) => e === "policy.documents_updated")).toHaveLength(2);

    // The revision row: who, when, before, after, note; the audit row as the CLI.
    const db = await getDb();
    const [row] = await db.select().from(policyRevisions).where(eq(policyRevisions.policyId, policy.id));
    expect(row).toMatchObject({
      actor: "cli:tester",
      note: "Landlord raised the deposit",
      before: { coverage_amount_cents: 150000, status: "upcoming", unit: { name: "101", external_id: "u1" } },
      after: { coverage_amount_cents: 180000, status: "upcoming", unit: { name: "101", external_id: "u1" } },
    });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(policy.id)));
    expect(audit).toMatchObject({ action: "policies.revise", actorLabel: "cli:tester", subjectType: "policy" });
    // The prospect's latest_coverage shows the new amount.
    const [prospect] = await db
      .select()
      .from(prospects)
      .where(eq(prospects.id, policy.prospectId as number));
    expect(prospect.latestCoverage).toMatchObject({ coverage_amount_cents: 180000, policy_number: policy.policyNumber, status: "upcoming" });
  });

  it("a start moved to today makes an upcoming policy active: one policy.updated carrying it, the change in the status history", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "rev-2");
    const before = (await eventsOf(policy.policyNumber)).length;
    const result = await revise(policy, { coverage_start_date: "2026-11-25" });
    expect(result.policy.status).toBe("active");
    const events = (await eventsOf(policy.policyNumber)).slice(before);
    expect(events.map((e) => e.event)).toEqual(["policy.updated"]);
    expect(events[0].data).toMatchObject({ status: "active", coverage_start_date: "2026-11-25" });
    const history = await statusHistoryOf(await getDb(), policy.id);
    expect(history.at(-1)).toMatchObject({ fromStatus: "upcoming", toStatus: "active", actor: "cli:tester" });

    // And back: a start moved after today → upcoming again.
    const back = await revise(result.policy, { coverage_start_date: "2026-12-05" });
    expect(back.policy.status).toBe("upcoming");
    expect((await eventsOf(policy.policyNumber)).slice(before).map((e) => e.event)).toEqual(["policy.updated", "policy.updated"]);
  });

  it("an end moved before today cancels: policy.updated and policy.canceled (no reason in either), the reason kept in the status history", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "rev-3");
    const before = (await eventsOf(policy.policyNumber)).length;
    // Active since 2026-12-01; on 2027-03-10 staff end the coverage on 2027-02-28.
    const result = await revise(policy, { coverage_end_date: "2027-02-28" }, new Date("2027-03-10T09:00:00Z"));
    expect(result.events.sort()).toEqual(["policy.canceled", "policy.updated"]);
    expect(result.policy.status).toBe("canceled");
    const events = (await eventsOf(policy.policyNumber)).slice(before);
    expect(events.map((e) => e.event).sort()).toEqual(["policy.canceled", "policy.updated"]);
    for (const event of events) {
      expect(event.data).toMatchObject({
        status: "canceled",
        coverage_end_date: "2027-02-28",
        renewal_eligibility_status: "blocked",
        blocking_reasons: ["Policy is canceled"],
      });
      expect(Object.keys(event.data)).not.toContain("reason");
      expect(Object.keys(event.data)).not.toContain("policy_url");
    }
    const history = await statusHistoryOf(await getDb(), policy.id);
    expect(history.at(-1)).toMatchObject({ fromStatus: "upcoming", toStatus: "canceled", reason: "Coverage ended early by a revision" });
    // The documents are regenerated too (the declarations show the new end date).
    await runDueJobs();
    const documents = (await eventsOf(policy.policyNumber)).slice(before).filter((e) => e.event === "policy.documents_updated");
    expect(documents).toHaveLength(1);
    expect(documents[0].data.status).toBe("canceled");
  });

  it("corrects the unit within the building: the new unit, its PMS unit id, the resident follows", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "rev-4");
    const u2 = await unitOf(p.owner.id, "u2");
    const before = (await eventsOf(policy.policyNumber)).length;
    const result = await revise(policy, { unit_external_id: "u2" });
    expect(result.policy).toMatchObject({ unitId: u2.id, propertyId: policy.propertyId, pmsUnitId: "PMS-102" });
    const [event] = (await eventsOf(policy.policyNumber)).slice(before);
    expect(event).toMatchObject({ event: "policy.updated", data: { pms_unit_id: "PMS-102" } });
    const db = await getDb();
    const [resident] = await db.select().from(residents).where(eq(residents.policyId, policy.id));
    expect(resident.unitId).toBe(u2.id);
    expect(result.revision.after.unit).toEqual({ id: u2.id, name: "102", external_id: "u2" });
  });

  it("refuses bad input with field errors and changes nothing (no row, no event, no job, no audit)", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "rev-5");
    const db = await getDb();
    await db.update(propertyOwners).set({ maxCoverageAmountCents: 200000 }).where(eq(propertyOwners.id, p.owner.id));
    const x1 = await unitOf(p.owner.id, "x1");
    const eventsBefore = (await eventsOf(policy.policyNumber)).length;
    const cases: [Parameters<typeof revisePolicy>[3], string, string][] = [
      [{ coverage_amount_cents: 0 }, "coverage_amount_cents", "positive whole number"],
      [{ coverage_amount_cents: -5 }, "coverage_amount_cents", "positive whole number"],
      [{ coverage_amount_cents: 1500.5 }, "coverage_amount_cents", "positive whole number"],
      [{ coverage_amount_cents: 3_000_000_000 }, "coverage_amount_cents", "positive whole number"],
      [{ coverage_amount_cents: 200001 }, "coverage_amount_cents", "maximum of 200000"],
      [{ coverage_start_date: "2026-02-30" }, "coverage_start_date", "YYYY-MM-DD"],
      [{ coverage_end_date: "next year" }, "coverage_end_date", "YYYY-MM-DD"],
      [{ coverage_end_date: "2026-12-01" }, "coverage_end_date", "before the end date"],
      [{ coverage_start_date: "2027-12-01" }, "coverage_start_date", "before the end date"],
      [{ unit_external_id: "nope" }, "unit", "No unit"],
      // A unit of another building of the same owner: corrections stay within the building.
      [{ unit_id: x1.id }, "unit", "within the policy's building"],
      [{ unit_id: 2_000_000_000 }, "unit", "No unit"],
    ];
    for (const [input, field, message] of cases) {
      const failure = await revise(policy, input).catch((error: unknown) => error);
      expect(failure, JSON.stringify(input)).toMatchObject({ kind: "invalid" });
      const fields = (failure as { fields?: Record<string, string[]> }).fields ?? {};
      expect(fields[field]?.join(" "), JSON.stringify(input)).toContain(message);
    }
    // Nothing to change: no value, or only the current values.
    for (const input of [{}, { coverage_amount_cents: 150000, coverage_start_date: "2026-12-01", unit_external_id: "u1" }]) {
      await expect(revise(policy, input)).rejects.toMatchObject({ kind: "invalid", message: expect.stringContaining("Nothing to change") });
    }
    // Within the ceiling is fine — but first check nothing above changed anything.
    expect(await policyRowOf(policy.id)).toEqual(policy);
    expect((await eventsOf(policy.policyNumber)).length).toBe(eventsBefore);
    expect(await countOf(policyRevisions, eq(policyRevisions.policyId, policy.id))).toBe(0);
    expect(await countOf(auditLog, eq(auditLog.subjectId, String(policy.id)))).toBe(0);
    const [{ n: archives }] = await db.select({ n: count() }).from(policyDocuments).where(eq(policyDocuments.policyId, policy.id));
    await runDueJobs();
    const [{ n: archivesAfter }] = await db.select({ n: count() }).from(policyDocuments).where(eq(policyDocuments.policyId, policy.id));
    expect(archivesAfter).toBe(archives);
    await expect(revise(policy, { coverage_amount_cents: 200000 })).resolves.toMatchObject({ policy: { coverageAmountCents: 200000 } });
  });

  it("payloads follow the table for a guarantee policy not from a prospect: product_version present, source_prospect_id omitted", async () => {
    const p = await partner();
    const issued = await issuedPolicy(p, "rev-7");
    const db = await getDb();
    // A guarantee lives on a building that offers it (else renewal is blocked: docs/policies.md rule 6).
    await db.update(properties).set({ guaranteeEnabled: true }).where(eq(properties.id, issued.propertyId));
    const guarantee = await insertGuaranteePolicyBeside(issued);
    await revise(guarantee, { coverage_amount_cents: 320000 });
    const [event] = await eventsOf(guarantee.policyNumber);
    expect(event).toEqual({
      event: "policy.updated",
      data: {
        id: `policy_${guarantee.id}`,
        policy_number: guarantee.policyNumber,
        status: "active",
        product_type: "renter_guarantee_insurance",
        product_version: "2025.12.01",
        coverage_amount_cents: 320000,
        coverage_start_date: "2026-01-01",
        coverage_end_date: "2026-12-31",
        admin_policy_url: `http://localhost:3999/console/policies/${guarantee.id}`,
        renewal_eligibility_status: "eligible",
        blocking_reasons: [],
      },
    });
  });

  it("a canceled or expired policy cannot be revised (409), and an unknown policy is a 404", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "rev-6");
    const db = await getDb();
    for (const status of ["canceled", "expired"] as const) {
      await db.update(policies).set({ status }).where(eq(policies.id, policy.id));
      await expect(revise(policy, { coverage_amount_cents: 160000 })).rejects.toMatchObject({
        kind: "conflict",
        message: `Policy is ${status} and cannot be revised`,
      });
    }
    await expect(db.transaction((tx) => revisePolicy(tx, CLI, 2_000_000_000, { coverage_amount_cents: 1 }))).rejects.toMatchObject({ kind: "not_found" });
    expect(await countOf(policyRevisions, eq(policyRevisions.policyId, policy.id))).toBe(0);
  });
});
