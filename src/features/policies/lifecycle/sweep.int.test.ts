import { eq, inArray } from "drizzle-orm";
import { parseCrontab } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { addJob, crontabOf } from "../../../server/jobs/define-task";
import { runDueJobs } from "../../../test/jobs";
import { propertyOwners } from "../../owners/owners.table";
import { prospects } from "../../prospects/prospects.table";
import { properties } from "../../roster/roster.table";
import { webhookDeliveries, webhookEvents } from "../../webhooks/webhooks.table";
import { RENEWAL_BLOCKING_REASONS as R } from "../messages";
import { policies } from "../policies.table";
import { enrollmentPartnersOfThisFile } from "../policy-test-helpers";
import { changePolicyStatus, statusHistoryOf } from "../status/change-status";
import { dueStatusOn } from "../status/rules";
import { issuedPolicy, STATUS_EVENTS, statusEventsOf, subscribeToStatusEvents } from "./lifecycle-test-helpers";
import { policyExpireDue } from "./policy__expire_due";
import { SWEEP_PAUSE_RATIO, sweepDuePolicies } from "./sweep";

const partner = enrollmentPartnersOfThisFile();

async function ready() {
  const p = await partner();
  await subscribeToStatusEvents(p);
  return p;
}

async function row(id: number) {
  const [policy] = await (await getDb()).select().from(policies).where(eq(policies.id, id));
  return policy;
}

describe("the status sweep (docs/policies.md, Status over time; decisions §11)", () => {
  it("starts an upcoming policy on its start date with policy.updated carrying the new state, and expires it after its end with policy.expired", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "life-1");
    expect(policy.status).toBe("upcoming");
    const db = await getDb();

    expect(await sweepDuePolicies(db, "2026-11-30", { actor: "system:test" })).toEqual({ expired: [], activated: [] });
    expect(await sweepDuePolicies(db, "2026-12-01", { actor: "system:test" })).toEqual({ expired: [], activated: [policy.policyNumber] });
    expect((await row(policy.id)).status).toBe("active");
    expect(await sweepDuePolicies(db, "2027-11-30", { actor: "system:test" })).toEqual({ expired: [], activated: [] });
    expect(await sweepDuePolicies(db, "2027-12-01", { actor: "system:test" })).toEqual({ expired: [policy.policyNumber], activated: [] });

    const history = await statusHistoryOf(db, policy.id);
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.actor, h.reason])).toEqual([
      [null, "upcoming", "system:issuance", null],
      ["upcoming", "active", "system:test", null],
      ["active", "expired", "system:test", null],
    ]);

    // The events, exactly the spec's payload: renewal fields always there, optional fields omitted.
    const expected = {
      id: `policy_${policy.id}`,
      policy_number: policy.policyNumber,
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 150000,
      coverage_start_date: "2026-12-01",
      coverage_end_date: "2027-11-30",
      admin_policy_url: `http://localhost:3999/console/policies/${policy.id}`,
      source_prospect_id: "life-1",
    };
    await runDueJobs();
    const delivered = p
      .delivered()
      .filter((b) => STATUS_EVENTS.includes(b.event))
      .sort((a, b) => a.event.localeCompare(b.event));
    expect(delivered).toEqual([
      {
        event: "policy.expired",
        property_owner_slug: p.owner.slug,
        data: { insurance_policy: { ...expected, status: "expired", renewal_eligibility_status: "blocked", blocking_reasons: [R.policyExpired] } },
      },
      {
        event: "policy.updated",
        property_owner_slug: p.owner.slug,
        data: { insurance_policy: { ...expected, status: "active", renewal_eligibility_status: "eligible", blocking_reasons: [] } },
      },
    ]);
    // The prospect's latest_coverage follows.
    expect((await p.get("life-1")).body.prospect.latest_coverage).toMatchObject({ policy_number: policy.policyNumber, status: "expired" });
  });

  it("takes an upcoming policy whose end already passed straight to expired: one change, one policy.expired", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "life-2");
    const db = await getDb();
    expect(await sweepDuePolicies(db, "2028-01-01", { actor: "system:test" })).toEqual({ expired: [policy.policyNumber], activated: [] });
    expect((await statusHistoryOf(db, policy.id)).map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "upcoming"],
      ["upcoming", "expired"],
    ]);
    expect((await statusEventsOf([policy.policyNumber])).map((e) => e.event)).toEqual(["policy.expired"]);
  });

  it("is idempotent: a second run of the same day changes nothing and emits nothing", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "life-3", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    const db = await getDb();
    expect((await sweepDuePolicies(db, "2026-07-01", { actor: "system:test" })).expired).toContain(policy.policyNumber);
    const again = await sweepDuePolicies(db, "2026-07-01", { actor: "system:test" });
    expect(again.expired).not.toContain(policy.policyNumber);
    expect(await statusEventsOf([policy.policyNumber])).toHaveLength(1);
    expect(await statusHistoryOf(db, policy.id)).toHaveLength(2);
  });

  it("leaves canceled and expired policies as they are: both are final", async () => {
    const p = await ready();
    const canceled = await issuedPolicy(p, "life-4", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    const db = await getDb();
    await db.transaction((tx) => changePolicyStatus(tx, canceled.id, "active", "canceled", { actor: "console:a@example.com", reason: "moved" }));
    await sweepDuePolicies(db, "2026-07-01", { actor: "system:test" });
    expect((await row(canceled.id)).status).toBe("canceled");
    expect((await statusEventsOf([canceled.policyNumber])).map((e) => e.event)).toEqual(["policy.canceled"]);
    // The base change refuses to leave a final status, with a 409 and nothing changed.
    await expect(db.transaction((tx) => changePolicyStatus(tx, canceled.id, "canceled", "active", { actor: "system:test" }))).rejects.toMatchObject({
      kind: "conflict",
      message: "A canceled policy cannot become active: canceled is final",
    });
    await expect(db.transaction((tx) => changePolicyStatus(tx, canceled.id, "expired", "active", { actor: "system:test" }))).rejects.toMatchObject({
      kind: "conflict",
    });
    expect((await row(canceled.id)).status).toBe("canceled");
  });

  it("changes each due policy once with one event when two sweeps run at the same time", async () => {
    const p = await ready();
    const db = await getDb();
    const issued = [];
    for (let i = 0; i < 8; i++) issued.push(await issuedPolicy(p, `race-${i}`, { status: i % 2 ? "active" : "upcoming" }));
    const numbers = issued.map((policy) => policy.policyNumber);
    // Small batches, so the two runs interleave over the same due policies.
    const [a, b] = await Promise.all([
      sweepDuePolicies(db, "2028-01-01", { actor: "system:a", batchSize: 2 }),
      sweepDuePolicies(db, "2028-01-01", { actor: "system:b", batchSize: 2 }),
    ]);
    const mine = [...a.expired, ...b.expired].filter((n) => numbers.includes(n));
    expect(mine.sort()).toEqual([...numbers].sort());
    const events = await statusEventsOf(numbers);
    expect(events.map((e) => e.policyNumber).sort()).toEqual([...numbers].sort());
    expect(new Set(events.map((e) => e.event))).toEqual(new Set(["policy.expired"]));
    for (const policy of issued) expect((await statusHistoryOf(db, policy.id)).filter((h) => h.toStatus === "expired")).toHaveLength(1);
  });

  it("runs beside partners: one batch at a time, each followed by a pause sized on its own duration (docs/decisions.md, Sweep beside partners)", async () => {
    const p = await ready();
    const db = await getDb();
    const numbers: string[] = [];
    for (let i = 0; i < 7; i++) numbers.push((await issuedPolicy(p, `pace-${i}`, { status: "active" })).policyNumber);
    const paced = async (options: { pauseRatio?: number }) => {
      const batches: { start: number; end: number; ms: number }[] = [];
      const result = await sweepDuePolicies(db, "2028-01-01", {
        actor: "system:test",
        batchSize: 2,
        ...options,
        onBatch: ({ ms }) => batches.push({ start: performance.now() - ms, end: performance.now(), ms }),
      });
      return { result, batches };
    };
    const { result, batches } = await paced({ pauseRatio: 1.5 });
    expect(result.expired.filter((n) => numbers.includes(n)).sort()).toEqual([...numbers].sort());
    expect(batches.length).toBeGreaterThanOrEqual(4);
    // Never two batches in flight, and after each one a pause of 1.5 times its duration (a timer's
    // millisecond of rounding allowed) before the next begins.
    for (let i = 1; i < batches.length; i++) expect(batches[i].start - batches[i - 1].end).toBeGreaterThanOrEqual(batches[i - 1].ms * 1.5 - 1);

    // The default pause, for the cron and the CLI.
    for (let i = 0; i < 5; i++) numbers.push((await issuedPolicy(p, `pace-default-${i}`, { status: "active" })).policyNumber);
    const defaults = await paced({});
    expect(defaults.batches.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < defaults.batches.length; i++) {
      expect(defaults.batches[i].start - defaults.batches[i - 1].end).toBeGreaterThanOrEqual(defaults.batches[i - 1].ms * SWEEP_PAUSE_RATIO - 1);
    }
    expect(SWEEP_PAUSE_RATIO).toBeGreaterThanOrEqual(0.5);
  });

  it("waits for a due policy another transaction holds, then changes it: a run leaves nothing due behind", async () => {
    const p = await ready();
    const held = await issuedPolicy(p, "held-1", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    const db = await getDb();
    let sweep: Promise<{ expired: string[] }> | undefined;
    let settledWhileHeld = false;
    await db.transaction(async (tx) => {
      await tx.select().from(policies).where(eq(policies.id, held.id)).for("update");
      sweep = sweepDuePolicies(db, "2026-07-01", { actor: "system:test" });
      sweep.then(() => {
        settledWhileHeld = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    expect(settledWhileHeld).toBe(false);
    expect((await sweep)?.expired).toContain(held.policyNumber);
    expect(await statusEventsOf([held.policyNumber])).toHaveLength(1);
  });

  it("leaves latest_coverage alone when the changed policy is not the prospect's latest coverage", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "latest-1", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    const db = await getDb();
    const newer = { type: "security_deposit_insurance", coverage_amount_cents: 90000, policy_number: "PIS-2026-999999", status: "upcoming" };
    await db
      .update(prospects)
      .set({ latestCoverage: newer })
      .where(eq(prospects.id, policy.prospectId as number));
    await sweepDuePolicies(db, "2026-07-01", { actor: "system:test" });
    expect((await row(policy.id)).status).toBe("expired");
    const [prospect] = await db
      .select()
      .from(prospects)
      .where(eq(prospects.id, policy.prospectId as number));
    expect(prospect.latestCoverage).toEqual(newer);
  });

  it("advances exactly the policies the pure rule says are due (the sweep's SQL and dueStatusOn agree)", async () => {
    const p = await ready();
    const db = await getDb();
    const asOf = "2027-03-15";
    const cases = [
      { status: "upcoming", coverageStartDate: "2027-03-16", coverageEndDate: "2028-03-15" },
      { status: "upcoming", coverageStartDate: "2027-03-15", coverageEndDate: "2028-03-14" },
      { status: "upcoming", coverageStartDate: "2026-03-01", coverageEndDate: "2027-03-14" },
      { status: "upcoming", coverageStartDate: "2026-03-01", coverageEndDate: "2027-03-15" },
      { status: "active", coverageStartDate: "2026-03-15", coverageEndDate: "2027-03-15" },
      { status: "active", coverageStartDate: "2026-03-15", coverageEndDate: "2027-03-14" },
      { status: "pending", coverageStartDate: "2026-03-15", coverageEndDate: "2027-03-14" },
      { status: "expired", coverageStartDate: "2026-03-15", coverageEndDate: "2027-03-14" },
    ] as const;
    const issued = [];
    for (const [i, c] of cases.entries()) issued.push(await issuedPolicy(p, `rule-${i}`, c));
    await sweepDuePolicies(db, asOf, { actor: "system:test" });
    const after = await db
      .select()
      .from(policies)
      .where(
        inArray(
          policies.id,
          issued.map((x) => x.id),
        ),
      );
    for (const before of issued) {
      const now = after.find((x) => x.id === before.id);
      expect([before.coverageStartDate, before.coverageEndDate, now?.status]).toEqual([
        before.coverageStartDate,
        before.coverageEndDate,
        dueStatusOn(before, asOf) ?? before.status,
      ]);
    }
  });

  it("carries the renewal rules in the events' payloads", async () => {
    const p = await ready();
    const policy = await issuedPolicy(p, "renew-1", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    const db = await getDb();
    await db.update(properties).set({ active: false }).where(eq(properties.id, policy.propertyId));
    await db.update(propertyOwners).set({ purchaseFlowEnabled: false, maxCoverageAmountCents: 100000 }).where(eq(propertyOwners.id, p.owner.id));
    await sweepDuePolicies(db, "2026-07-01", { actor: "system:test" });
    const [event] = await statusEventsOf([policy.policyNumber]);
    expect(event.body.data.insurance_policy).toMatchObject({
      status: "expired",
      renewal_eligibility_status: "blocked",
      blocking_reasons: [R.policyExpired, R.propertyInactive, R.purchaseFlowDisabled, R.coverageAboveMaximum],
    });
  });

  it("writes one delivery per subscribed endpoint, and no event where nobody subscribed to it (the change still happens)", async () => {
    const db = await getDb();
    const p = await ready();
    const heard = await issuedPolicy(p, "deliv-1", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    const unheard = await partner(); // subscribed to issuance events only
    const silent = await issuedPolicy(unheard, "deliv-2", { status: "active", coverageStartDate: "2026-01-01", coverageEndDate: "2026-06-30" });
    await sweepDuePolicies(db, "2026-07-01", { actor: "system:test" });
    const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.policyNumber, heard.policyNumber)).orderBy(webhookEvents.id);
    const expired = (await db.select().from(webhookEvents).where(eq(webhookEvents.policyNumber, heard.policyNumber))).filter(
      (e) => e.event === "policy.expired",
    );
    expect(event).toBeDefined();
    expect(expired).toHaveLength(1);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, expired[0].id))).toHaveLength(1);
    expect((await row(silent.id)).status).toBe("expired");
    expect(await statusEventsOf([silent.policyNumber])).toEqual([]);
  });
});

describe("policy__expire_due (the daily cron)", () => {
  it("is scheduled daily at 00:05 UTC, making up a missed day", () => {
    const crontab = crontabOf([policyExpireDue]);
    expect(crontab).toBe("5 0 * * * policy__expire_due ?fill=1d");
    const [item] = parseCrontab(crontab);
    expect(item).toMatchObject({ task: "policy__expire_due", options: { backfillPeriod: 86_400_000 } });
  });

  it("runs through the worker's task list as of today (UTC), with the crontab's payload", async () => {
    const p = await ready();
    const ended = await issuedPolicy(p, "cron-1", { status: "active", coverageStartDate: "2025-01-01", coverageEndDate: "2025-12-31" });
    const running = await issuedPolicy(p, "cron-2", { status: "active", coverageStartDate: "2025-01-01", coverageEndDate: "2099-12-31" });
    const db = await getDb();
    await addJob(db, policyExpireDue, { _cron: { ts: new Date().toISOString(), backfilled: false } } as never);
    await runDueJobs();
    expect((await row(ended.id)).status).toBe("expired");
    expect((await row(running.id)).status).toBe("active");
    expect((await statusHistoryOf(db, ended.id)).at(-1)?.actor).toBe("system:policy__expire_due");
    const [prospect] = await db
      .select()
      .from(prospects)
      .where(eq(prospects.id, ended.prospectId as number));
    expect(prospect.latestCoverage).toMatchObject({ status: "expired" });
  });
});
