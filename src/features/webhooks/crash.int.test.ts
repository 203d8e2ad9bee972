import { type ChildProcess, spawn } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { databaseUrl, getDb } from "../../server/db/client";
import { startReceiver } from "../../test/https-receiver";
import { emitEvent } from "./emit";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries } from "./webhooks.table";

const workers: ChildProcess[] = [];
afterAll(() => {
  for (const worker of workers) worker.kill("SIGKILL");
});

async function startWorkerProcess(): Promise<ChildProcess> {
  const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    stdio: "ignore",
    env: {
      ...process.env,
      DATABASE_URL: await databaseUrl(),
      WORKER_CONCURRENCY: "8",
      WEBHOOK_LEASE_SECONDS: "3",
      WEBHOOK_REAP_INTERVAL_SECONDS: "1",
      LOG_LEVEL: "silent",
    },
  });
  workers.push(worker);
  return worker;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("crash safety (docs/decisions.md, Webhooks: a worker killed mid-delivery loses nothing)", () => {
  it("recovers deliveries a SIGKILLed worker left delivering, and every delivery ends delivered", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await startReceiver({ status: 200, delayMs: 400 });
    const endpoint = await register(hook.url, ["prospect.created"]);
    const db = await getDb();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 60; i++) await emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: `crash-${i}` } });
    });
    const first = await startWorkerProcess();
    await until(() => hook.received.length >= 12, 30_000);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const stranded = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "delivering"));
    expect(stranded.length).toBeGreaterThan(0);

    const second = await startWorkerProcess();
    await until(async () => {
      const rows = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
      return rows.every((row) => row.status === "delivered");
    }, 90_000);
    second.kill("SIGTERM");
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    expect(rows).toHaveLength(60);
    const seen = new Set(hook.received.map((r) => r.headers["x-webhook-delivery"]));
    for (const row of rows) expect(seen.has(row.id)).toBe(true);
    await hook.close();
  }, 120_000);
});
