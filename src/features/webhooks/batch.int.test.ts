import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { unlockStaleWorkers } from "../../server/jobs/system__unlock_stale_workers";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { attemptDeliveries, attemptDelivery } from "./deliver";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { deliveryTask, MAX_DELIVERIES_PER_JOB } from "./webhook_delivery__attempt";
import { reapLapsedDeliveries } from "./webhook_delivery__reap";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookRateWindows } from "./webhooks.table";

const receiver = receiversOfThisFile();

/** The delivery jobs waiting in this file's database, with their delivery ids. */
async function deliveryJobs() {
  const rows = await (await getDb()).execute<{ payload: { deliveryIds: string[] }; run_at: string }>(
    sql`select j.payload, j.run_at from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${deliveryTask.name}`,
  );
  return rows.map((row) => ({ ids: row.payload.deliveryIds, runAt: new Date(row.run_at) }));
}

async function clearJobs() {
  await (await getDb()).execute(sql`delete from graphile_worker._private_jobs`);
}

describe("delivery batches", () => {
  it("enqueues one job for the deliveries of an event, 100 deliveries at most per job", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const first = await register(hook.url, ["prospect.created"]);
    const db = await getDb();
    const [template] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, first));
    await db
      .insert(webhookEndpoints)
      .values(Array.from({ length: MAX_DELIVERIES_PER_JOB + 4 }, (_, i) => ({ ...template, id: `${first}_${String(i).padStart(3, "0")}` })));
    await clearJobs();
    const { deliveries } = await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "many" } });
    expect(deliveries).toBe(MAX_DELIVERIES_PER_JOB + 5);
    const jobs = await deliveryJobs();
    expect(jobs.map((job) => job.ids.length).sort((a, b) => a - b)).toEqual([5, MAX_DELIVERIES_PER_JOB]);
    const rows = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, (await lastEventId()) ?? 0));
    expect(new Set(jobs.flatMap((job) => job.ids))).toEqual(new Set(rows.map((row) => row.id)));

    // One job's batch is attempted side by side and settled together.
    const settled = await attemptDeliveries(jobs.flatMap((job) => job.ids));
    expect(settled).toHaveLength(MAX_DELIVERIES_PER_JOB + 5);
    expect(settled.every((delivery) => delivery.status === "delivered" && delivery.attemptNumber === 1)).toBe(true);
    expect(new Set(hook.received.map((r) => r.headers["x-webhook-delivery"])).size).toBe(MAX_DELIVERIES_PER_JOB + 5);
  });

  it("counts a batch into the endpoint's window in order: only the slots left under 1000 are sent", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["prospect.created"]);
    const db = await getDb();
    const now = new Date();
    await db.insert(webhookRateWindows).values({ endpointId: endpoint, startedAt: now, count: 998 });
    for (const id of ["a", "b", "c", "d"]) await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id } });
    await clearJobs();
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    const settled = await attemptDeliveries(
      rows.map((row) => row.id),
      { now: () => new Date(now.getTime() + 1000) },
    );
    const byStatus = (status: string) => settled.filter((delivery) => delivery.status === status);
    expect(byStatus("delivered")).toHaveLength(2);
    expect(byStatus("rate_limited")).toHaveLength(2);
    expect(byStatus("rate_limited").every((d) => d.attemptNumber === 0 && d.lastAttemptFailureReason === WEBHOOK_MESSAGES.rateLimited(1000))).toBe(true);
    expect(hook.received).toHaveLength(2);
    // The excess comes back in one job 60 s later.
    const [job] = await deliveryJobs();
    expect(new Set(job.ids)).toEqual(new Set(byStatus("rate_limited").map((d) => d.id)));
    expect((job.runAt.getTime() - now.getTime()) / 1000).toBe(61);
  });

  it("emits and claims side by side on the same endpoints without deadlocks or lost deliveries", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoints = await Promise.all(Array.from({ length: 12 }, () => register(hook.url, ["prospect.created"])));
    const db = await getDb();
    const emitting = { done: false };
    const pending = async () =>
      (
        await db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(and(inArray(webhookDeliveries.endpointId, endpoints), eq(webhookDeliveries.status, "pending")))
      ).map((row) => row.id);
    // Emitters hold their deliveries' foreign-key locks on the endpoints across several statements
    // while claimers lock the same endpoints to count their rate windows.
    const emitters = Array.from({ length: 4 }, async (_, lane) => {
      for (let i = 0; i < 10; i++) {
        await db.transaction(async (tx) => {
          for (let k = 0; k < 3; k++) {
            await emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: `race-${lane}-${i}-${k}` } });
          }
        });
      }
    });
    const claimers = Array.from({ length: 4 }, async () => {
      while (!emitting.done) await attemptDeliveries(await pending());
    });
    await Promise.all(emitters);
    emitting.done = true;
    await Promise.all(claimers);
    await attemptDeliveries(await pending());
    const rows = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.endpointId, endpoints));
    expect(rows).toHaveLength(4 * 10 * 3 * 12);
    expect(rows.filter((row) => row.status !== "delivered" || row.attemptNumber !== 1)).toEqual([]);
    expect(hook.received).toHaveLength(4 * 10 * 3 * 12);
  }, 60_000);

  it("claims one endpoint's deliveries one by one from many workers while others emit to it, without deadlocks", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["prospect.created"]);
    const db = await getDb();
    // As prospect.ready behaves: each event is emitted in a transaction that also writes other rows,
    // and its single delivery is claimed by one of 16 workers as soon as it commits.
    const queue: string[] = [];
    const failures: unknown[] = [];
    let emitting = 8;
    const emitters = Array.from({ length: 8 }, async (_, lane) => {
      for (let i = 0; i < 30; i++) {
        await db.transaction(async (tx) => {
          await emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: `one-${lane}-${i}` } });
          await tx.execute(sql`select pg_sleep(0.002)`);
        });
        const [row] = await db.execute<{ id: string }>(
          sql`select id from webhook_deliveries where endpoint_id = ${endpoint} order by created_at desc, id desc limit 1`,
        );
        queue.push(row.id);
      }
      emitting--;
    });
    const workers = Array.from({ length: 16 }, async () => {
      while (emitting > 0 || queue.length > 0) {
        const id = queue.shift();
        if (id) await attemptDeliveries([id]).catch((error) => failures.push(error));
        else await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
    await Promise.all([...emitters, ...workers]);
    expect(failures).toEqual([]);
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    expect(rows).toHaveLength(240);
    await attemptDeliveries(rows.filter((row) => row.status === "pending").map((row) => row.id));
    expect((await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint))).filter((row) => row.status !== "delivered")).toEqual(
      [],
    );
  }, 60_000);

  it("claims while an uncommitted emission holds its foreign-key locks on the same endpoint", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["prospect.created"]);
    const db = await getDb();
    await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "before" } });
    const [earlier] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let emitted = () => {};
    const emitting = new Promise<void>((resolve) => {
      emitted = resolve;
    });
    const open = db.transaction(async (tx) => {
      await emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "open" } });
      emitted();
      await held;
    });
    await emitting;
    const claim = attemptDeliveries([earlier.id]);
    const outcome = await Promise.race([claim, new Promise((resolve) => setTimeout(() => resolve("blocked"), 3_000))]);
    release();
    await open;
    expect(outcome).toMatchObject([{ id: earlier.id, status: "delivered" }]);
  }, 15_000);

  it("lets a late result change nothing once the reaper handed the delivery on (the lease is the fence)", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver({ status: 200, delayMs: 1_000 });
    const endpoint = await register(hook.url, ["prospect.created"]);
    const db = await getDb();
    await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "late" } });
    await clearJobs();
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    // A batch never outlives its lease on its own (it settles at two thirds of it); a worker stalled
    // past it is what leaves a late result: here its clock says the claim happened 4 s ago.
    process.env.WEBHOOK_LEASE_SECONDS = "3";
    resetConfig();
    try {
      const late = attemptDelivery(delivery.id, { now: () => new Date(Date.now() - 4_000) });
      while (hook.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await reapLapsedDeliveries()).toBe(1);
      hook.answer({ status: 500 });
      expect(await late).toBeUndefined();
    } finally {
      delete process.env.WEBHOOK_LEASE_SECONDS;
      resetConfig();
    }
    const [after] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
    // The lapsed lease counted as attempt 1 (docs/decisions.md, Hardening: deliveries).
    expect(after).toMatchObject({ status: "retrying", attemptNumber: 1, lastAttemptFailureReason: WEBHOOK_MESSAGES.leaseLapsed });
    const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id)).orderBy(webhookAttempts.id);
    expect(attempts.map((a) => [a.number, a.responseStatus])).toEqual([
      [1, null],
      [1, 500],
    ]);
    // Only the reaper's job is queued; the late result scheduled nothing.
    expect((await deliveryJobs()).map((job) => job.ids)).toEqual([[delivery.id]]);
  }, 15_000);
});

describe("jobs of a dead worker (docs/decisions.md, Webhooks: picked up again within 2 minutes; the job runner's system__unlock_stale_workers)", () => {
  it("unlocks a job a killed worker had taken before claiming its deliveries, once its lock is older than the stale-lock limit", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["prospect.created"]);
    const db = await getDb();
    await clearJobs();
    await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "orphan" } });
    // A worker took the job and died before its first statement: the job stays locked by it.
    const lock = (secondsAgo: number) =>
      db.execute(sql`update graphile_worker._private_jobs set locked_by = 'worker-killed', locked_at = now() - make_interval(secs => ${secondsAgo})`);
    await lock(30);
    expect(await unlockStaleWorkers()).toBe(0);
    await runDueJobs();
    expect(hook.received).toHaveLength(0); // younger than the limit: it may still be running
    await lock(61);
    expect(await unlockStaleWorkers()).toBe(1);
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
    expect((await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint)))[0].status).toBe("delivered");
  });
});

async function lastEventId(): Promise<number | undefined> {
  const [row] = await (await getDb()).execute<{ id: number }>(sql`select max(id)::int as id from webhook_events`);
  return row?.id;
}
