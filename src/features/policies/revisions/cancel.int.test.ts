import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { runDueJobs } from "../../../test/jobs";
import { auditLog } from "../../audit/audit-log.table";
import { prospects } from "../../prospects/prospects.table";
import { policyDocuments } from "../documents/policy-documents.table";
import { policies } from "../policies.table";
import { enrollmentPartnersOfThisFile } from "../policy-test-helpers";
import { statusHistoryOf } from "../status/change-status";
import { cancelPolicy } from "./cancel";
import { revisePolicy } from "./revise";
import { eventsOf, issuedPolicy, policyRowOf } from "./revision-test-helpers";

const partner = enrollmentPartnersOfThisFile();
const CLI = { cli: "tester" };

async function cancel(policyId: number, reason?: string) {
  const db = await getDb();
  return db.transaction((tx) => cancelPolicy(tx, CLI, policyId, { reason }));
}

async function archiveCount(policyId: number) {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(policyDocuments).where(eq(policyDocuments.policyId, policyId));
  return row.n;
}

describe("policy cancellation (docs/decisions.md, Policies: revisions and cancellation; decisions §11; spec Policy payload notes)", () => {
  it("cancels → policy.canceled with the new state and no reason; the reason kept in the status history and the audit log; no new archive", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "can-1");
    const before = (await eventsOf(policy.policyNumber)).length;
    const archives = await archiveCount(policy.id);
    const canceled = await cancel(policy.id, "Renter moved before the lease started");
    expect(canceled.status).toBe("canceled");

    const events = (await eventsOf(policy.policyNumber)).slice(before);
    expect(events.map((e) => e.event)).toEqual(["policy.canceled"]);
    // spec: no cancellation reason or refund amount; renewal fields always present; no policy_url.
    expect(events[0].data).toEqual({
      id: `policy_${policy.id}`,
      policy_number: policy.policyNumber,
      status: "canceled",
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 150000,
      coverage_start_date: "2026-12-01",
      coverage_end_date: "2027-11-30",
      admin_policy_url: `http://localhost:3999/console/policies/${policy.id}`,
      source_prospect_id: "can-1",
      renewal_eligibility_status: "blocked",
      blocking_reasons: ["Policy is canceled"],
    });
    const db = await getDb();
    const history = await statusHistoryOf(db, policy.id);
    expect(history.at(-1)).toMatchObject({
      fromStatus: "upcoming",
      toStatus: "canceled",
      reason: "Renter moved before the lease started",
      actor: "cli:tester",
    });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(policy.id)));
    expect(audit).toMatchObject({
      action: "policies.cancel",
      actorLabel: "cli:tester",
      before: { status: "upcoming" },
      after: { status: "canceled", reason: "Renter moved before the lease started" },
    });
    const [prospect] = await db
      .select()
      .from(prospects)
      .where(eq(prospects.id, policy.prospectId as number));
    expect(prospect.latestCoverage).toMatchObject({ status: "canceled" });

    await runDueJobs();
    await runDueJobs();
    expect(await archiveCount(policy.id)).toBe(archives);
    expect(p.delivered().filter((b) => b.event === "policy.canceled")).toHaveLength(1);
  });

  it("canceling a canceled policy is a 409 that changes nothing; an expired one cannot be canceled; an unknown one is a 404", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "can-2");
    await cancel(policy.id);
    const after = await policyRowOf(policy.id);
    const events = (await eventsOf(policy.policyNumber)).length;
    await expect(cancel(policy.id, "again")).rejects.toMatchObject({ kind: "conflict", message: "Policy is already canceled" });
    expect(await policyRowOf(policy.id)).toEqual(after);
    expect((await eventsOf(policy.policyNumber)).length).toBe(events);
    const db = await getDb();
    expect((await statusHistoryOf(db, policy.id)).filter((c) => c.toStatus === "canceled")).toHaveLength(1);

    const other = await issuedPolicy(await partner(), "can-3");
    await db.update(policies).set({ status: "expired" }).where(eq(policies.id, other.id));
    await expect(cancel(other.id)).rejects.toMatchObject({ kind: "conflict", message: "Policy is expired and cannot be canceled" });
    await expect(cancel(2_000_000_000)).rejects.toMatchObject({ kind: "not_found" });
  });

  it("two concurrent cancels: one wins and emits one policy.canceled, the other is a 409", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "can-4");
    const before = (await eventsOf(policy.policyNumber)).length;
    const results = await Promise.allSettled([cancel(policy.id, "first"), cancel(policy.id, "second")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r) => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({ kind: "conflict" });
    expect((await eventsOf(policy.policyNumber)).slice(before).map((e) => e.event)).toEqual(["policy.canceled"]);
    const db = await getDb();
    expect((await statusHistoryOf(db, policy.id)).filter((c) => c.toStatus === "canceled")).toHaveLength(1);
    const [{ n }] = await db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(policy.id)));
    expect(n).toBe(1);
  });

  it("a revision racing a cancellation: they never interleave; one policy.canceled, and a revision that comes second is a 409", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "can-5");
    const before = (await eventsOf(policy.policyNumber)).length;
    const db = await getDb();
    const [canceled, revised] = await Promise.allSettled([
      cancel(policy.id, "race"),
      db.transaction((tx) => revisePolicy(tx, CLI, policy.id, { coverage_amount_cents: 160000 })),
    ]);
    expect(canceled.status).toBe("fulfilled");
    const row = await policyRowOf(policy.id);
    expect(row.status).toBe("canceled");
    const events = (await eventsOf(policy.policyNumber)).slice(before).map((e) => e.event);
    expect(events.filter((e) => e === "policy.canceled")).toHaveLength(1);
    if (revised.status === "rejected") {
      // The cancellation won the lock: the revision saw a canceled policy and changed nothing.
      expect(revised.reason).toMatchObject({ kind: "conflict", message: "Policy is canceled and cannot be revised" });
      expect(row.coverageAmountCents).toBe(150000);
      expect(events).toEqual(["policy.canceled"]);
    } else {
      // The revision won: it ran whole first, then the cancellation.
      expect(row.coverageAmountCents).toBe(160000);
      expect(events).toEqual(["policy.updated", "policy.canceled"]);
    }
  });
});
