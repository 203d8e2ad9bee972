import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databaseUrl, getDb } from "../../server/db/client";
import { startReceiver } from "../../test/https-receiver";
import { getJson, startProcess, until } from "../../test/processes";
import { emitEvent } from "./emit";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries } from "./webhooks.table";

/**
 * decisions §14, Shutdown, with two real worker processes and a real HTTPS receiver: a worker
 * stopped (SIGTERM) while a delivery's attempt is in flight answers 503 "shutting down" at once,
 * lets the attempt finish (longer than graphile-worker's own 5 s abort), and the delivery is
 * delivered once: the second worker neither loses nor re-sends it.
 */
async function startWorker(port: number, env: Record<string, string> = {}) {
  const worker = startProcess(["scripts/worker.ts"], {
    ...process.env,
    DATABASE_URL: await databaseUrl(),
    WORKER_HEALTH_PORT: String(port),
    WEBHOOK_REAP_INTERVAL_SECONDS: "1",
    // Readiness names its reasons only to this token (docs/decisions.md, Second security review).
    METRICS_TOKEN: "shutdown-test-metrics-token",
    LOG_LEVEL: "info",
    ...env,
  });
  await until(
    async () => (await getJson(`http://127.0.0.1:${port}/healthz`))?.status === 200,
    60_000,
    () => worker.output(),
  );
  return worker;
}

describe("graceful shutdown of a worker (decisions §14, Shutdown)", () => {
  it("finishes the delivery in flight at SIGTERM, delivered once, none re-sent by the other worker", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await startReceiver({ status: 200, delayMs: 8_000 });
    const endpoint = await register(hook.url, ["prospect.created"]);
    const first = await startWorker(5021);
    const db = await getDb();
    await db.transaction((tx) => emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "in-flight" } }));
    await until(
      () => hook.received.length === 1,
      30_000,
      () => first.output(),
    );
    const second = await startWorker(5022);

    const signalled = Date.now();
    first.child.kill("SIGTERM");
    const draining = await getJson("http://127.0.0.1:5021/readyz", { authorization: "Bearer shutdown-test-metrics-token" });
    expect(draining).toMatchObject({ status: 503, body: { status: "unavailable", checks: { shutdown: "shutting down" } } });
    const exit = await first.exited;
    expect(exit, first.output()).toEqual({ code: 0, signal: null });
    // It waited for the receiver's answer (8 s after the request) before exiting.
    expect(Date.now() - hook.received[0].receivedAt).toBeGreaterThanOrEqual(7_900);
    expect(Date.now() - signalled).toBeLessThan(25_000);

    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    expect(row.status).toBe("delivered");
    // The other worker, reaping every second, sends nothing more.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(hook.received).toHaveLength(1);
    expect(first.output()).not.toMatch(/FATAL|"level":50/);

    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
    await hook.close();
  }, 120_000);

  it("hands a job still running at SHUTDOWN_TIMEOUT_SECONDS back at once, unlocked, and exits", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await startReceiver({ status: 200, delayMs: 9_000 });
    await register(hook.url, ["prospect.created"]);
    const worker = await startWorker(5023, { SHUTDOWN_TIMEOUT_SECONDS: "2" });
    const db = await getDb();
    await db.transaction((tx) => emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "handed-back" } }));
    await until(
      () => hook.received.length === 1,
      30_000,
      () => worker.output(),
    );
    const signalled = Date.now();
    worker.child.kill("SIGTERM");
    expect(await worker.exited, worker.output()).toEqual({ code: 0, signal: null });
    // The budget, not the receiver's 9 s answer.
    expect(Date.now() - signalled).toBeLessThan(7_000);
    const locked = await db.execute<{ task: string; locked_by: string; locked_at: string }>(sql`
      select t.identifier as task, j.locked_by, j.locked_at::text from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id where j.locked_at is not null`);
    expect(locked, worker.output()).toEqual([]);
    expect(worker.output()).toContain("handed back");
    await hook.close();
  }, 120_000);
});
