import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auditLog } from "../features/audit/audit-log.table";
import { issuedPolicy, statusEventsOf, subscribeToStatusEvents } from "../features/policies/lifecycle/lifecycle-test-helpers";
import { policies } from "../features/policies/policies.table";
import { enrollmentPartnersOfThisFile } from "../features/policies/policy-test-helpers";
import { statusHistoryOf } from "../features/policies/status/change-status";
import { resetConfig } from "../server/config";
import { getDb } from "../server/db/client";
import { admin } from "./admin-test-helpers";

const partner = enrollmentPartnersOfThisFile();

afterEach(() => {
  vi.restoreAllMocks();
  process.env.APP_ENV = "staging";
  resetConfig();
});

const today = () => new Date().toISOString().slice(0, 10);

async function statusOf(id: number) {
  const [row] = await (await getDb()).select({ status: policies.status }).from(policies).where(eq(policies.id, id));
  return row.status;
}

describe("npm run admin -- policy expire-due (decisions §4)", () => {
  it("in staging, sweeps as of a chosen day: expires and starts the policies due, prints both lists, and a second run finds nothing", async () => {
    const p = await partner();
    await subscribeToStatusEvents(p);
    const upcoming = await issuedPolicy(p, "cli-up"); // 2026-12-01 → 2027-11-30
    const ending = await issuedPolicy(p, "cli-end", { status: "active", coverageStartDate: "2027-01-01", coverageEndDate: "2027-01-31" });

    const run = await admin("policy", "expire-due", "--as-of", "2027-02-01");
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out).toMatchObject({ as_of: "2027-02-01" });
    expect(run.out.expired).toContain(ending.policyNumber);
    expect(run.out.activated).toContain(upcoming.policyNumber);
    expect(run.out.expired).not.toContain(upcoming.policyNumber);
    expect(await statusOf(ending.id)).toBe("expired");
    expect(await statusOf(upcoming.id)).toBe("active");
    // The run is in the audit log, with its counts (docs/decisions.md "Hardening: the CLI, merged links, demo framing").
    const audit = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "policies.expire_due"), eq(auditLog.subjectId, "2027-02-01")));
    expect(audit).toMatchObject([
      {
        actorLabel: expect.stringMatching(/^cli:/),
        subjectType: "policy_sweep",
        after: { as_of: "2027-02-01", expired: (run.out.expired as string[]).length, activated: (run.out.activated as string[]).length },
      },
    ]);
    expect((await statusHistoryOf(await getDb(), ending.id)).at(-1)?.actor).toMatch(/^cli:/);
    expect((await statusEventsOf([ending.policyNumber, upcoming.policyNumber])).map((e) => [e.policyNumber, e.event]).sort()).toEqual(
      [
        [ending.policyNumber, "policy.expired"],
        [upcoming.policyNumber, "policy.updated"],
      ].sort(),
    );

    const again = await admin("policy", "expire-due", "--as-of", "2027-02-01");
    expect(again.code).toBe(0);
    expect(again.out.expired).not.toContain(ending.policyNumber);
    expect(again.out.activated).not.toContain(upcoming.policyNumber);
  });

  it("without --as-of, sweeps as of today (UTC)", async () => {
    const p = await partner();
    const ended = await issuedPolicy(p, "cli-today", { status: "active", coverageStartDate: "2025-01-01", coverageEndDate: "2025-12-31" });
    const run = await admin("policy", "expire-due");
    expect(run).toMatchObject({ code: 0, err: "", out: { as_of: today() } });
    expect(run.out.expired).toContain(ended.policyNumber);
  });

  it("refuses a malformed or impossible date with a one-line message, changing nothing", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "cli-bad", { status: "active", coverageStartDate: "2025-01-01", coverageEndDate: "2025-12-31" });
    for (const bad of ["2027-02-30", "01/02/2027", "tomorrow", ""]) {
      const run = await admin("policy", "expire-due", "--as-of", bad);
      expect(run).toMatchObject({ code: 1, out: {} });
      expect(run.err).toBe("--as-of must be a date as YYYY-MM-DD (bad_request)\n");
    }
    expect(await statusOf(policy.id)).toBe("active");
  });

  it("in production, refuses a date other than today and changes nothing; today's date is accepted", async () => {
    const p = await partner();
    const policy = await issuedPolicy(p, "cli-prod", { status: "active", coverageStartDate: "2025-01-01", coverageEndDate: "2025-12-31" });
    process.env.APP_ENV = "production";
    resetConfig();
    const refused = await admin("policy", "expire-due", "--as-of", "2099-01-01");
    expect(refused).toMatchObject({ code: 1, out: {} });
    expect(refused.err).toBe(`--as-of other than today (${today()}) is refused in production; the sweep runs for today only (forbidden)\n`);
    expect(await statusOf(policy.id)).toBe("active");

    const accepted = await admin("policy", "expire-due", "--as-of", today());
    expect(accepted).toMatchObject({ code: 0, err: "" });
    expect(accepted.out.expired).toContain(policy.policyNumber);
  });
});
