import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { databaseUrl, getDb } from "../../server/db/client";
import { serveMetrics } from "../../server/observability/metrics";
import { receiversOfThisFile } from "../../test/https-receiver";
import { bulkRetries } from "./console/bulk-retries.table";
import { Dispatcher } from "./dispatcher";
import { emitEvents } from "./emit";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./webhooks.table";

const receiver = receiversOfThisFile();
const running: Dispatcher[] = [];

/** A dispatcher of this test, stopped after it (attempts still in flight handed back at once). */
function dispatcher(options: { maxInFlight?: number; endpointMaxInFlight?: number } = {}) {
  const d = new Dispatcher({ maxInFlight: options.maxInFlight ?? 500, endpointMaxInFlight: options.endpointMaxInFlight ?? 10, pollMs: 100 });
  running.push(d);
  d.start();
  return d;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop(0)));
  // Nothing of one test is due for the next one's dispatcher.
  await (await getDb()).execute(
    sql`update webhook_deliveries set status = 'failed', next_retry_at = null, lease_expires_at = null where status <> 'delivered'`,
  );
});

/**
 * A partner (its own owner) with one endpoint at `url`, and a way to emit `n` events to it in one
 * statement. The endpoint has answered before (its slow start over) unless `untried`.
 */
async function partnerAt(url: string, { untried = false } = {}) {
  const { owner, register } = await webhookPartner();
  const endpointId = await register(url, ["prospect.created"]);
  if (!untried) await (await getDb()).update(webhookEndpoints).set({ firstDeliveredAt: new Date() }).where(eq(webhookEndpoints.id, endpointId));
  const emit = async (n: number) => {
    const db = await getDb();
    const inputs = Array.from({ length: n }, (_, i) => ({
      ownerId: owner.id,
      ownerSlug: owner.slug,
      event: "prospect.created" as const,
      data: { id: `p-${i}` },
    }));
    await emitEvents(db, inputs);
  };
  return { endpointId, emit };
}

/** This process's /metrics served on a port of its own, and one sample's value read from it. */
async function servedMetrics() {
  process.env.METRICS_TOKEN = "dispatcher-metrics-token";
  resetConfig();
  const server = http.createServer((req, res) => {
    if (!serveMetrics(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const sample = async (name: string) => {
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`, {
      headers: { authorization: "Bearer dispatcher-metrics-token" },
    });
    const line = (await answer.text()).split("\n").find((row) => row.startsWith(`${name} `));
    return Number(line?.split(" ")[1] ?? Number.NaN);
  };
  const close = () => {
    server.close();
    delete process.env.METRICS_TOKEN;
    resetConfig();
  };
  return { sample, close };
}

/**
 * `due` deliveries due to one endpoint on a fast receiver, `before` run once they are (a bulk retry's
 * row), then `dispatchers` dispatchers: what the receiver got in 3 s from a moment after the first
 * claim (its pace is set in the background after it), and in all by then.
 */
async function pacedRun(due: number, { dispatchers = 1, before }: { dispatchers?: number; before?: (endpointId: string) => Promise<void> } = {}) {
  const flooded = await receiver(200);
  const recovering = await partnerAt(flooded.url);
  await recovering.emit(due);
  await before?.(recovering.endpointId);
  for (let i = 0; i < dispatchers; i++) dispatcher().wake();
  await until(() => flooded.received.length >= 1);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const start = flooded.received.length;
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return { endpointId: recovering.endpointId, during: flooded.received.length - start, total: flooded.received.length };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function statuses(endpointId: string) {
  const rows = await (await getDb())
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, [endpointId]));
  const count = (status: string) => rows.filter((row) => row.status === status).length;
  return { rows, count };
}

describe("the dispatcher: one partner's receiver never slows another's (shared decisions §17)", () => {
  it("delivers another owner's event to a fast receiver while a hanging receiver's attempts are still in flight", async () => {
    const hanging = await receiver({ status: 200, delayMs: 60_000 });
    const fast = await receiver(200);
    const b = await partnerAt(hanging.url);
    const a = await partnerAt(fast.url);
    const d = dispatcher();
    await b.emit(30);
    d.wake();
    await until(() => hanging.received.length >= 10);
    const sentAt = Date.now();
    await a.emit(1);
    d.wake();
    await until(() => fast.received.length === 1, 9_000);
    // Arrived while the hanging receiver still held its attempts (their 10 s budget not spent).
    expect(hanging.concurrency.now).toBe(10);
    expect(Date.now() - sentAt).toBeLessThan(9_000);
    await until(async () => (await statuses(a.endpointId)).count("delivered") === 1, 5_000);
    // The hanging endpoint's other deliveries wait their turn without an attempt.
    expect(hanging.received).toHaveLength(10);
    expect(hanging.concurrency.max).toBe(10);
    const b_ = await statuses(b.endpointId);
    expect(b_.count("delivering")).toBe(10);
    expect(b_.rows.filter((row) => row.status === "pending" && row.attemptNumber === 0)).toHaveLength(20);
  });

  it("never holds more attempts of one endpoint than WEBHOOK_ENDPOINT_MAX_IN_FLIGHT, and delivers them all", async () => {
    const slow = await receiver({ status: 200, delayMs: 150 });
    const p = await partnerAt(slow.url);
    const d = dispatcher({ endpointMaxInFlight: 4 });
    await p.emit(40);
    d.wake();
    await until(async () => (await statuses(p.endpointId)).count("delivered") === 40);
    expect(slow.concurrency.max).toBe(4);
    expect(slow.received).toHaveLength(40);
    expect(new Set(slow.received.map((r) => r.headers["x-webhook-delivery"])).size).toBe(40);
  });

  it("keeps a tenth of its slots for endpoints holding none: hanging endpoints wanting more than every slot leave a fast one its attempt", async () => {
    // 40 slots (4 kept), 10 hanging endpoints of 10 each would want 100.
    const hanging = await Promise.all(Array.from({ length: 10 }, () => receiver({ status: 200, delayMs: 60_000 })));
    const stuck = await Promise.all(hanging.map((hook) => partnerAt(hook.url)));
    const fast = await receiver(200);
    const a = await partnerAt(fast.url);
    for (const p of stuck) await p.emit(10);
    const d = dispatcher({ maxInFlight: 40, endpointMaxInFlight: 10 });
    await until(() => hanging.reduce((sum, hook) => sum + hook.received.length, 0) >= 36);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The endpoints holding attempts stop at the slots above the reserve.
    expect(d.inFlight).toBe(36);
    const sentAt = Date.now();
    await a.emit(3);
    d.wake();
    await until(() => fast.received.length === 3, 9_000);
    expect(Date.now() - sentAt).toBeLessThan(9_000);
    expect(hanging.reduce((sum, hook) => sum + hook.concurrency.now, 0)).toBe(36);
  });

  it("holds one attempt at a time for an endpoint whose last attempt got no answer, and its full limit again once it answers", async () => {
    const hook = await receiver({ status: 200, delayMs: 300, hangUp: true });
    const p = await partnerAt(hook.url);
    await p.emit(30);
    dispatcher({ maxInFlight: 500, endpointMaxInFlight: 10 });
    await until(() => hook.received.length >= 10 && hook.concurrency.now === 0);
    expect(hook.concurrency.max).toBe(10);
    hook.concurrency.max = 0;
    await until(() => hook.received.length >= 14);
    expect(hook.concurrency.max).toBe(1);
    hook.answer({ status: 200, delayMs: 200 });
    hook.concurrency.max = 0;
    await until(async () => (await statuses(p.endpointId)).count("delivered") === 30, 30_000);
    expect(hook.concurrency.max).toBeGreaterThan(1);
  });

  it("holds one attempt at a time of an endpoint that has never answered a 2xx (slow start), and its full limit once one is delivered", async () => {
    const hook = await receiver({ status: 200, delayMs: 300 });
    const p = await partnerAt(hook.url, { untried: true });
    await p.emit(30);
    dispatcher();
    await until(async () => (await statuses(p.endpointId)).count("delivered") === 30, 30_000);
    // The first attempt went alone: the second one left only once the first was answered.
    const [first, second] = hook.received;
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(290);
    expect(hook.concurrency.max).toBe(10);
    const [endpoint] = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, p.endpointId));
    expect(endpoint.firstDeliveredAt).toBeInstanceOf(Date);
  });

  it("holds one attempt of an untried endpoint that never answers, in every claim, and its other deliveries wait unclaimed", async () => {
    const hanging = await receiver({ status: 200, delayMs: 60_000 });
    const p = await partnerAt(hanging.url, { untried: true });
    await p.emit(20);
    const d = dispatcher();
    await until(() => hanging.received.length === 1);
    await p.emit(5);
    d.wake();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hanging.received).toHaveLength(1);
    expect(d.inFlight).toBe(1);
    const after = await statuses(p.endpointId);
    expect(after.count("delivering")).toBe(1);
    expect(after.count("pending")).toBe(24);
    const [endpoint] = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, p.endpointId));
    expect(endpoint.firstDeliveredAt).toBeNull();
  });

  it("starts attempts to receivers not known to answer at most 100 a second, 10 at once: 50 new endpoints' first attempts spread over 0.4 s", async () => {
    const hooks = await Promise.all(Array.from({ length: 50 }, () => receiver({ status: 200, delayMs: 60_000 })));
    const partners = await Promise.all(hooks.map((hook) => partnerAt(hook.url, { untried: true })));
    for (const p of partners) await p.emit(1);
    const started = Date.now();
    dispatcher();
    await until(() => hooks.every((hook) => hook.received.length === 1));
    const arrivals = hooks.map((hook) => hook.received[0].receivedAt).sort((x, y) => x - y);
    // The k-th start (from 0) waits (k - 9) × 10 ms after the claim, and every arrival follows its start:
    // the k-th arrival is that late at least, however slow the connections (a timer may round 1 ms early).
    for (const [k, at] of arrivals.entries()) expect(at - started).toBeGreaterThanOrEqual((k - 9) * 10 - 2);
  });

  it("never holds more attempts in all than WEBHOOK_MAX_IN_FLIGHT", async () => {
    const hooks = await Promise.all(Array.from({ length: 4 }, () => receiver({ status: 200, delayMs: 150 })));
    const partners = await Promise.all(hooks.map((hook) => partnerAt(hook.url)));
    const d = dispatcher({ maxInFlight: 7, endpointMaxInFlight: 10 });
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(
        most,
        d.inFlight,
        hooks.reduce((sum, hook) => sum + hook.concurrency.now, 0),
      );
    }, 5);
    try {
      for (const p of partners) await p.emit(12);
      d.wake();
      for (const p of partners) await until(async () => (await statuses(p.endpointId)).count("delivered") === 12);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(7);
    expect(hooks.reduce((sum, hook) => sum + hook.concurrency.max, 0)).toBeGreaterThan(1);
  });

  it("frees an attempt's slot when its answer arrives: attempts go on while settles wait, until as many wait as there are slots", async () => {
    const hook = await receiver(200);
    const p = await partnerAt(hook.url);
    await p.emit(40);
    // Settles write webhook_attempts; claims never do. Holding this lock keeps every settle waiting.
    const blocker = postgres(await databaseUrl(), { max: 1, onnotice: () => {} });
    const locked = await blocker.reserve();
    await locked`begin`;
    await locked`lock table webhook_attempts in share row exclusive mode`;
    try {
      dispatcher({ maxInFlight: 10, endpointMaxInFlight: 4 });
      // Beyond one endpoint's limit of 4: the answered attempts no longer hold it while they wait to be settled.
      await until(() => hook.received.length >= 12);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // A claim needs fewer than 10 unsettled and takes at most 4: never more than 13 sent.
      expect(hook.received.length).toBeLessThanOrEqual(13);
      expect(hook.concurrency.max).toBeLessThanOrEqual(4);
      expect((await statuses(p.endpointId)).count("delivered")).toBe(0);
    } finally {
      await locked`rollback`;
      locked.release();
      await blocker.end();
    }
    await until(async () => (await statuses(p.endpointId)).count("delivered") === 40);
    expect(hook.received.length).toBe(40);
  });

  it("takes endpoints in turn: a 5,000-delivery backlog of one endpoint does not stand in front of a new delivery to another", async () => {
    const busy = await receiver({ status: 200, delayMs: 100 });
    const other = await receiver(200);
    const backlog = await partnerAt(busy.url);
    const fresh = await partnerAt(other.url);
    await backlog.emit(5_000);
    const d = dispatcher({ maxInFlight: 20, endpointMaxInFlight: 10 });
    d.wake();
    await until(() => busy.received.length >= 10);
    await fresh.emit(1);
    d.wake();
    await until(() => other.received.length === 1, 10_000);
    // Ten at a time, 100 ms each: the backlog has barely started.
    expect(busy.received.length).toBeLessThan(500);
    expect(busy.concurrency.max).toBeLessThanOrEqual(10);
  });

  it("rests an endpoint whose rate window is full until the window ends: its excess is settled rate_limited once, not claimed over and over", async () => {
    const fast = await receiver(200);
    const limited = await partnerAt(fast.url);
    const db = await getDb();
    // 1,000 deliveries already sent in a window that ends in 1.5 s.
    await db.execute(sql`
      insert into webhook_rate_windows (endpoint_id, started_at, count) values (${limited.endpointId}, now() - interval '58.5 seconds', 1000)
      on conflict (endpoint_id) do update set started_at = excluded.started_at, count = excluded.count`);
    await limited.emit(40);
    const d = dispatcher({ maxInFlight: 500, endpointMaxInFlight: 10 });
    d.wake();
    await until(async () => (await statuses(limited.endpointId)).count("rate_limited") > 0);
    // One claim's worth is settled rate_limited (retried in 60 s, no attempt used); the others wait, unclaimed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const resting = await statuses(limited.endpointId);
    expect(resting.count("rate_limited")).toBe(10);
    expect(resting.count("pending")).toBe(30);
    expect(fast.received).toHaveLength(0);
    // The window ends: the waiting ones go out in a new window.
    await until(async () => (await statuses(limited.endpointId)).count("delivered") === 30);
    const after = await statuses(limited.endpointId);
    expect(after.count("rate_limited")).toBe(10);
    expect(after.rows.filter((row) => row.status === "rate_limited").every((row) => row.attemptNumber === 0)).toBe(true);
    expect(fast.received).toHaveLength(30);
  });

  it("spreads a window's allowance across the window when more is due than it allows: a recovery is no burst", async () => {
    const { endpointId, during, total } = await pacedRun(1_500);
    // 990 left over the minute: about 16 a second (50 in 3 s; at most 75 if it had fallen behind
    // earlier), where unpaced all 1,000 would have gone in the first seconds and none after.
    expect(during).toBeGreaterThan(25);
    expect(during).toBeLessThan(100);
    expect(total).toBeLessThan(500);
    // What waits is pending, not settled rate_limited over and over.
    const now = await statuses(endpointId);
    expect(now.count("rate_limited")).toBe(0);
    expect(now.count("delivered") + now.count("delivering") + now.count("pending")).toBe(1_500);
  }, 30_000);

  it("shares one pace among processes: three dispatchers pacing one endpoint send what one would", async () => {
    const { during } = await pacedRun(1_500, { dispatchers: 3 });
    // About 50 in 3 s, each process at most a claim's few ahead; each pacing alone would send about 150.
    expect(during).toBeGreaterThan(25);
    expect(during).toBeLessThan(110);
  }, 30_000);

  it("counts what a running bulk retry of the endpoint is about to make due: its first chunk is paced too", async () => {
    const db = await getDb();
    let retried = "";
    try {
      // A recovery of 5,000 whose first 600 are due: the window would take them all at once.
      const { during, total } = await pacedRun(600, {
        before: async (endpointId) => {
          retried = endpointId;
          await db.insert(bulkRetries).values({
            filter: { endpoint_id: endpointId, status: "failed", from: new Date(0).toISOString() },
            cutoff: new Date(),
            matched: 5_000,
            enqueued: 600,
            status: "running",
            requestedBy: "test",
          });
        },
      });
      expect(during).toBeLessThan(100);
      // Unpaced, all 600 go in the first second.
      expect(total).toBeLessThan(300);
    } finally {
      await db.update(bulkRetries).set({ status: "done" }).where(sql`${bulkRetries.filter}->>'endpoint_id' = ${retried}`);
    }
  }, 30_000);

  it("does not pace a backlog its window allows: 900 due go out at once", async () => {
    const fast = await receiver(200);
    const backlog = await partnerAt(fast.url);
    await backlog.emit(900);
    const d = dispatcher();
    d.wake();
    await until(async () => (await statuses(backlog.endpointId)).count("delivered") === 900, 15_000);
    expect(fast.received).toHaveLength(900);
  }, 30_000);

  it("drains on stop: the attempts in flight finish and are settled, and nothing more is claimed", async () => {
    const slow = await receiver({ status: 200, delayMs: 400 });
    const p = await partnerAt(slow.url);
    const d = new Dispatcher({ maxInFlight: 500, endpointMaxInFlight: 5, pollMs: 100 });
    d.start();
    await p.emit(8);
    d.wake();
    await until(() => slow.received.length === 5);
    await d.stop(10_000);
    expect(d.inFlight).toBe(0);
    const after = await statuses(p.endpointId);
    expect(after.count("delivered")).toBe(5);
    expect(after.count("pending")).toBe(3);
    expect(after.count("delivering")).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(slow.received).toHaveLength(5);
  });

  it("hands back the attempts still unanswered at the stop's budget: due again, their attempt not counted", async () => {
    const hanging = await receiver({ status: 200, delayMs: 60_000 });
    const p = await partnerAt(hanging.url);
    const d = new Dispatcher({ maxInFlight: 500, endpointMaxInFlight: 10, pollMs: 100 });
    d.start();
    await p.emit(3);
    d.wake();
    await until(() => hanging.received.length === 3);
    const stopped = Date.now();
    await d.stop(1_500);
    expect(Date.now() - stopped).toBeLessThan(8_000);
    const after = await statuses(p.endpointId);
    expect(after.rows.map((row) => [row.status, row.attemptNumber, row.leaseExpiresAt])).toEqual([
      ["pending", 0, null],
      ["pending", 0, null],
      ["pending", 0, null],
    ]);
    const ids = after.rows.map((row) => row.id);
    expect(await (await getDb()).select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids))).toEqual([]);
  });

  it("two dispatchers on one database never attempt one delivery twice", async () => {
    const hooks = await Promise.all(Array.from({ length: 3 }, () => receiver(200)));
    const partners = await Promise.all(hooks.map((hook) => partnerAt(hook.url)));
    for (const p of partners) await p.emit(150);
    const first = dispatcher({ maxInFlight: 40 });
    const second = dispatcher({ maxInFlight: 40 });
    first.wake();
    second.wake();
    for (const p of partners) await until(async () => (await statuses(p.endpointId)).count("delivered") === 150, 30_000);
    const sent = hooks.flatMap((hook) => hook.received.map((r) => r.headers["x-webhook-delivery"]));
    expect(sent).toHaveLength(450);
    expect(new Set(sent).size).toBe(450);
    const ids = (await Promise.all(partners.map((p) => statuses(p.endpointId)))).flatMap((s) => s.rows.map((row) => row.id));
    const attempts = await (await getDb()).select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
    expect(attempts).toHaveLength(450);
  });

  it("shows its attempts in flight and their wait since falling due on /metrics (pis_webhook_attempts_in_flight, pis_webhook_attempt_wait_seconds)", async () => {
    const { sample, close } = await servedMetrics();
    try {
      const hanging = await receiver({ status: 200, delayMs: 60_000 });
      const p = await partnerAt(hanging.url);
      const inFlightBefore = await sample("pis_webhook_attempts_in_flight");
      const waitsBefore = await sample("pis_webhook_attempt_wait_seconds_count");
      const d = dispatcher();
      await p.emit(3);
      d.wake();
      await until(() => hanging.received.length === 3);
      expect(await sample("pis_webhook_attempts_in_flight")).toBe(inFlightBefore + 3);
      expect(await sample("pis_webhook_attempt_wait_seconds_count")).toBe(waitsBefore + 3);
      await d.stop(0);
      expect(await sample("pis_webhook_attempts_in_flight")).toBe(inFlightBefore);
    } finally {
      close();
    }
  });

  it("shows the endpoints it spreads across their rate window on /metrics (pis_webhook_endpoints_paced)", async () => {
    const { sample, close } = await servedMetrics();
    try {
      const flooded = await receiver(200);
      const recovering = await partnerAt(flooded.url);
      await recovering.emit(1_200);
      const before = await sample("pis_webhook_endpoints_paced");
      const d = dispatcher();
      d.wake();
      await until(async () => (await sample("pis_webhook_endpoints_paced")) === before + 1);
      await d.stop(0);
      expect(await sample("pis_webhook_endpoints_paced")).toBe(before);
    } finally {
      close();
    }
  }, 30_000);
});
