import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import { unique } from "@/test/factories";
import { call } from "@/test/http";
import { startReceiver } from "@/test/https-receiver";
import { runDueJobs } from "@/test/jobs";
import { completeProspect, prospectPartner } from "../../prospects/prospect-test-helpers";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => Promise.all(closers.map((close) => close())));

async function caller(role: "operator" | "account_manager" | null = "operator") {
  const base = { db: await getDb(), log: logger(), requestId: "test" };
  return consoleRouter.createCaller({ ...base, user: role && { id: 1, email: "staff@example.com", role } });
}

async function receiver(status: number) {
  const hook = await startReceiver({ status });
  closers.push(hook.close);
  return hook;
}

// Each integration test file has its own database: the figures below are this file's alone.
describe("console overview (docs/decisions.md, Console: UI kit, prospects, overview, audit)", () => {
  it("answers success rate and latency per hour, open deliveries, the queue and the failing endpoints", async () => {
    const partner = await prospectPartner();
    const failing = await receiver(500);
    const healthy = await receiver(200);
    const register = async (name: string, url: string) => {
      const answer = await call<{ endpoint: { id: string } }>("POST", `${partner.base}/webhooks/endpoints`, {
        token: partner.token,
        body: { endpoint: { name, destination_url: url, events: ["prospect.created"] } },
      });
      return answer.body.endpoint.id;
    };
    const failingId = await register("failing", failing.url);
    const healthyId = await register("healthy", healthy.url);
    for (let i = 0; i < 3; i++) await partner.post(completeProspect(partner.source, unique("ov")));
    await runDueJobs(); // one attempt each: 3 fail (then retrying), 3 succeed

    const db = await getDb();
    await db.execute(sql`select graphile_worker.add_job('overview_probe', '{}'::json, job_key := 'overview-probe')`);
    const overview = await (await caller()).overview.deliveries();
    await db.execute(sql`select graphile_worker.remove_job('overview-probe')`);

    expect(overview.hourly).toHaveLength(24);
    const hours = overview.hourly.map((point) => new Date(point.hour).getTime());
    expect(hours[23] - hours[0]).toBe(23 * 3_600_000);
    expect(overview.hourly.reduce((sum, point) => sum + point.attempts, 0)).toBe(6);
    const busy = overview.hourly.filter((point) => point.attempts > 0);
    for (const point of busy) expect(point.p95_ms).not.toBeNull();
    expect(overview.hourly.filter((point) => point.attempts === 0).every((point) => point.success_rate === null)).toBe(true);
    expect(overview.totals).toMatchObject({ attempts: 6, succeeded: 3, success_rate: 0.5, failed_deliveries: 0 });
    expect(overview.open_deliveries).toMatchObject({ retrying: 3, pending: 0 });
    expect(overview.queue.scheduled).toBeGreaterThanOrEqual(3); // the three retries, later
    expect(overview.queue.due_by_task).toContainEqual({ task: "overview_probe", due: 1 });
    expect(overview.queue.due).toBeGreaterThanOrEqual(1);
    expect(overview.failing_endpoints).toEqual([
      expect.objectContaining({ id: failingId, name: "failing", status: "active", owner_slug: partner.owner.slug, attempts: 3, failed_attempts: 3 }),
    ]);
    expect(overview.failing_endpoints[0].last_failure_reason).toBeTruthy();
    expect(overview.failing_endpoints.map((endpoint) => endpoint.id)).not.toContain(healthyId);
  });

  it("lists the endpoints holding the most attempts in flight, counted from the database (every worker's), most first", async () => {
    const partner = await prospectPartner();
    const hook = await receiver(200);
    const register = async (name: string) => {
      const answer = await call<{ endpoint: { id: string } }>("POST", `${partner.base}/webhooks/endpoints`, {
        token: partner.token,
        body: { endpoint: { name, destination_url: hook.url, events: ["prospect.created"] } },
      });
      return answer.body.endpoint.id;
    };
    const busy = await register("busy");
    const quieter = await register("quieter");
    await register("idle");
    for (let i = 0; i < 3; i++) await partner.post(completeProspect(partner.source, unique("fl")));
    const db = await getDb();
    // As claims by two worker processes leave them: three of one endpoint's deliveries, one of another's.
    await db.execute(sql`
      update webhook_deliveries set status = 'delivering', lease_expires_at = now() + interval '30 seconds'
      where endpoint_id = ${busy} or id = (select min(id) from webhook_deliveries where endpoint_id = ${quieter})`);
    const overview = await (await caller("account_manager")).overview.deliveries();
    expect(overview.endpoints_in_flight).toEqual([
      expect.objectContaining({ id: busy, name: "busy", owner_slug: partner.owner.slug, status: "active", in_flight: 3 }),
      expect.objectContaining({ id: quieter, name: "quieter", in_flight: 1 }),
    ]);
    expect(Number.isNaN(Date.parse(overview.endpoints_in_flight[0].oldest_since))).toBe(false);
    await db.execute(sql`update webhook_deliveries set status = 'failed', lease_expires_at = null where status = 'delivering'`);
    expect((await (await caller()).overview.deliveries()).endpoints_in_flight).toEqual([]);
  });

  it("both roles read it; an anonymous caller gets UNAUTHORIZED", async () => {
    await expect((await caller("operator")).overview.deliveries()).resolves.toHaveProperty("hourly");
    await expect((await caller("account_manager")).overview.deliveries()).resolves.toHaveProperty("hourly");
    await expect((await caller(null)).overview.deliveries()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
