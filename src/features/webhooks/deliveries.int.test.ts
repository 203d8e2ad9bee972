import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { queuedJobs, runDueJobs } from "../../test/jobs";
import { attemptDelivery, type Clock } from "./deliver";
import { emitEvent } from "./emit";
import { rotateOwnerSecret } from "./secrets";
import { deliveryTask } from "./webhook_delivery__attempt";
import { verifySignature, webhookPartner } from "./webhook-test-helpers";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, webhookRateWindows } from "./webhooks.table";

const receiver = receiversOfThisFile();

async function deliveriesOf(endpointId: string) {
  return (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

const emit = async (owner: { id: number; slug: string }, event: "prospect.created" | "move_out.initiated", data: Record<string, unknown>) =>
  emitEvent(await getDb(), { ownerId: owner.id, ownerSlug: owner.slug, event, data });

describe("emission (spec Delivery mechanics 1)", () => {
  it("records one delivery per active subscribed endpoint, each with its own id", async () => {
    const { owner, register, token, base } = await webhookPartner();
    const hook = await receiver();
    const a = await register(hook.url, ["prospect.created"]);
    const b = await register(hook.url, ["prospect.created", "move_out.initiated"]);
    const other = await register(hook.url, ["move_out.initiated"]);
    const suspended = await register(hook.url, ["prospect.created"]);
    await call("PUT", `${base}/${suspended}`, { token, body: { endpoint: { status: "suspended" } } });
    expect(await emit(owner, "prospect.created", { id: "sp-1" })).toMatchObject({ deliveries: 2 });
    const [da, db, dother, dsuspended] = await Promise.all([a, b, other, suspended].map(deliveriesOf));
    expect([da.length, db.length, dother.length, dsuspended.length]).toEqual([1, 1, 0, 0]);
    expect(da[0].id).not.toBe(db[0].id);
    await runDueJobs();
    expect(new Set(hook.received.map((r) => r.headers["x-webhook-delivery"]))).toEqual(new Set([da[0].id, db[0].id]));
  });

  it("keeps no event that no endpoint receives", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    await register(hook.url, ["move_out.initiated"]);
    expect(await emit(owner, "prospect.created", { id: "nobody" })).toEqual({ eventId: null, deliveries: 0 });
    const db = await getDb();
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.ownerId, owner.id))).toEqual([]);
    const kept = await emit(owner, "move_out.initiated", { move_out_id: 1, external_id: "mo-1", status: "initiated" });
    expect(kept).toMatchObject({ eventId: expect.any(Number), deliveries: 1 });
  });

  it("emits nothing when the causing transaction rolls back", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["prospect.created"]);
    await expect(
      (await getDb()).transaction(async (tx) => {
        await emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "x" } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await deliveriesOf(endpoint)).toEqual([]);
  });
});

describe("delivery (spec Headers, Body, signing)", () => {
  it("POSTs the exact body with every header and a signature an independent implementation verifies", async () => {
    const { owner, register, secrets } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["move_out.initiated"]);
    await (await getDb())
      .update(webhookEndpoints)
      .set({ staticHeaders: { "X-Partner-Key": "abc", "Content-Type": "text/plain", "X-Webhook-Event": "forged" } })
      .where(eq(webhookEndpoints.id, endpoint));
    await emit(owner, "move_out.initiated", { move_out_id: 7, external_id: "mo-7", status: "initiated" });
    await runDueJobs();
    const [request] = hook.received;
    expect(JSON.parse(request.rawBody)).toEqual({
      event: "move_out.initiated",
      property_owner_slug: owner.slug,
      data: { move_out: { move_out_id: 7, external_id: "mo-7", status: "initiated" } },
    });
    expect(Object.keys(JSON.parse(request.rawBody))).toEqual(["event", "property_owner_slug", "data"]);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-webhook-event"]).toBe("move_out.initiated");
    expect(request.headers["x-partner-key"]).toBe("abc");
    const [delivery] = await deliveriesOf(endpoint);
    expect(request.headers["x-webhook-delivery"]).toBe(delivery.id);
    expect(Number(request.headers["x-webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
    expect(request.headers["x-webhook-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], request.rawBody, (await secrets()).current)).toBe(
      true,
    );
    expect(
      verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], `${request.rawBody} `, (await secrets()).current),
    ).toBe(false);
    expect(delivery).toMatchObject({ status: "delivered", attemptNumber: 1, lastAttemptFailureReason: null });
  });

  it("signs with both secrets during a rotation window", async () => {
    const { owner, register, secrets } = await webhookPartner();
    const hook = await receiver();
    await register(hook.url, ["prospect.created"]);
    const before = (await secrets()).current;
    await rotateOwnerSecret(await getDb(), owner.id);
    const after = await secrets();
    expect(after.previous).toBe(before);
    await emit(owner, "prospect.created", { id: "rot" });
    await runDueJobs();
    const [request] = hook.received;
    expect(request.headers["x-webhook-signature"].match(/v1=/g)).toHaveLength(2);
    for (const secret of [before, after.current]) {
      expect(verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], request.rawBody, secret)).toBe(true);
    }
  });
});

describe("retries (spec Ordering and retries, Webhook delivery status)", () => {
  it("retries on the 2^k schedule capped at an hour and fails after attempt 25", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver(500);
    const endpoint = await register(hook.url, ["prospect.created"]);
    await emit(owner, "prospect.created", { id: "retry" });
    const [delivery] = await deliveriesOf(endpoint);
    let now = new Date();
    const clock: Clock = { now: () => now };
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 25; attempt++) {
      const settled = await attemptDelivery(delivery.id, clock);
      expect(settled?.attemptNumber).toBe(attempt);
      if (attempt < 25) {
        expect(settled?.status).toBe("retrying");
        expect(settled?.lastAttemptFailureReason).toBe("HTTP 500");
        const wait = ((settled?.nextRetryAt?.getTime() ?? 0) - now.getTime()) / 1000;
        waits.push(wait);
        // Not due yet: an early job does nothing.
        expect(await attemptDelivery(delivery.id, { now: () => new Date(now.getTime() + (wait - 1) * 1000) })).toBeUndefined();
        now = new Date(now.getTime() + wait * 1000);
      } else {
        expect(settled?.status).toBe("failed");
        expect(settled?.nextRetryAt).toBeNull();
      }
    }
    expect(waits.slice(0, 11)).toEqual([4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 3600]);
    expect(waits.slice(11).every((wait) => wait === 3600)).toBe(true);
    expect(await attemptDelivery(delivery.id, { now: () => new Date(now.getTime() + 86_400_000) })).toBeUndefined();
    const attempts = await (await getDb()).select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
    expect(attempts).toHaveLength(25);
    expect(hook.received).toHaveLength(25);
  });

  it("is delivered on any 2xx after failures, keeping the delivery id", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver(503);
    const endpoint = await register(hook.url, ["prospect.created"]);
    await emit(owner, "prospect.created", { id: "flip" });
    const [delivery] = await deliveriesOf(endpoint);
    const first = await attemptDelivery(delivery.id);
    expect(first?.status).toBe("retrying");
    hook.answer({ status: 204 });
    const second = await attemptDelivery(delivery.id, { now: () => first?.nextRetryAt ?? new Date() });
    expect(second).toMatchObject({ status: "delivered", attemptNumber: 2 });
    expect(new Set(hook.received.map((r) => r.headers["x-webhook-delivery"]))).toEqual(new Set([delivery.id]));
  });

  it("records refused connections and timeouts as failures with a reason", async () => {
    const { owner, register, base, token } = await webhookPartner();
    const closed = await register("https://localhost:1/hook", ["prospect.created"]);
    const slow = await receiver(200);
    slow.answer({ status: 200, delayMs: 11_000 });
    const slowEndpoint = await register(slow.url, ["prospect.created"]);
    await emit(owner, "prospect.created", { id: "broken" });
    const [refused] = await deliveriesOf(closed);
    const [timedOut] = await deliveriesOf(slowEndpoint);
    const [a, b] = await Promise.all([attemptDelivery(refused.id), attemptDelivery(timedOut.id)]);
    expect(a).toMatchObject({ status: "retrying", lastAttemptFailureReason: expect.stringContaining("ECONNREFUSED") });
    expect(b).toMatchObject({ status: "retrying", lastAttemptFailureReason: expect.stringContaining("timeout") });
    expect(b?.durationMs).toBeGreaterThanOrEqual(9_900);
    // Their scheduled retries must not slow down the other tests of this file.
    for (const id of [closed, slowEndpoint]) await call("DELETE", `${base}/${id}`, { token });
  }, 30_000);

  it("rate-limits past 1000 deliveries a minute to one endpoint without using an attempt", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["prospect.created"]);
    const now = new Date();
    await (await getDb()).insert(webhookRateWindows).values({ endpointId: endpoint, startedAt: now, count: 1000 });
    await emit(owner, "prospect.created", { id: "limited" });
    const [delivery] = await deliveriesOf(endpoint);
    const limited = await attemptDelivery(delivery.id, { now: () => new Date(now.getTime() + 1000) });
    expect(limited).toMatchObject({ status: "rate_limited", attemptNumber: 0 });
    expect(((limited?.nextRetryAt?.getTime() ?? 0) - now.getTime()) / 1000).toBe(61);
    expect(hook.received).toHaveLength(0);
    const later = await attemptDelivery(delivery.id, { now: () => limited?.nextRetryAt ?? new Date() });
    expect(later).toMatchObject({ status: "delivered", attemptNumber: 1 });
  });
});

describe("Retry-After (shared decisions §15)", () => {
  it("waits at least what a 429 or 503 asks (seconds or HTTP date), at most the hour cap, counting the attempt as retrying", async () => {
    const { owner, register, base, token } = await webhookPartner();
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toUTCString();
    const answers = [
      { status: 429, headers: { "Retry-After": "120" }, wait: 120 },
      { status: 503, headers: { "Retry-After": at(1800) }, wait: 1800 },
      { status: 429, headers: { "Retry-After": "86400" }, wait: 3600 },
      { status: 503, headers: { "Retry-After": at(-60) }, wait: 4 },
      { status: 429, headers: { "Retry-After": "in a while" }, wait: 4 },
      { status: 500, headers: { "Retry-After": "120" }, wait: 4 },
    ];
    const hooks = await Promise.all(answers.map(({ status, headers }) => receiver({ status, headers })));
    const endpoints = await Promise.all(hooks.map((hook) => register(hook.url, ["prospect.created"])));
    await emit(owner, "prospect.created", { id: "busy" });
    const deliveries = (await Promise.all(endpoints.map(deliveriesOf))).map(([delivery]) => delivery);
    await (await getDb()).execute(sql`delete from graphile_worker._private_jobs`);
    for (const [index, delivery] of deliveries.entries()) {
      const before = Date.now();
      const settled = await attemptDelivery(delivery.id);
      expect(settled).toMatchObject({ status: "retrying", attemptNumber: 1, lastAttemptFailureReason: `HTTP ${answers[index].status}` });
      const wait = ((settled?.nextRetryAt?.getTime() ?? 0) - before) / 1000;
      expect(wait).toBeGreaterThanOrEqual(answers[index].wait - 1);
      expect(wait).toBeLessThanOrEqual(answers[index].wait + 2);
      // The next job runs no sooner than that.
      const [job] = (await queuedJobs(deliveryTask.name)).filter((queued) => JSON.stringify(queued.payload).includes(delivery.id));
      expect(job.due_in_seconds).toBeGreaterThan(answers[index].wait - 3);
      const attempts = await (await getDb()).select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
      expect(attempts.map((a) => a.responseStatus)).toEqual([answers[index].status]);
    }
    // An early job does nothing; the receiver was asked once per delivery.
    expect(await attemptDelivery(deliveries[0].id)).toBeUndefined();
    expect(hooks.map((hook) => hook.received.length)).toEqual(answers.map(() => 1));
    for (const id of endpoints) await call("DELETE", `${base}/${id}`, { token });
  });

  it("still ends failed at attempt 25 whatever the receiver asks", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver({ status: 429, headers: { "Retry-After": "600" } });
    const endpoint = await register(hook.url, ["prospect.created"]);
    await emit(owner, "prospect.created", { id: "busy-last" });
    const [delivery] = await deliveriesOf(endpoint);
    await (await getDb()).update(webhookDeliveries).set({ attemptNumber: 24, status: "retrying" }).where(eq(webhookDeliveries.id, delivery.id));
    expect(await attemptDelivery(delivery.id)).toMatchObject({ status: "failed", attemptNumber: 25, nextRetryAt: null });
  });
});

describe("inspection and retry API (decisions §7)", () => {
  it("lists newest first with a status filter and cursor, shows the exact payload, and re-enqueues a failed delivery", async () => {
    const { owner, register, base, token } = await webhookPartner();
    const hook = await receiver(200);
    const endpoint = await register(hook.url, ["prospect.created"]);
    for (const id of ["one", "two", "three"]) await emit(owner, "prospect.created", { id });
    await runDueJobs();
    const path = `${base}/${endpoint}/deliveries`;
    const page1 = await call<{ deliveries: Array<{ id: string; status: string }>; next_cursor: string | null }>("GET", `${path}?limit=2`, { token });
    expect(page1.body.deliveries).toHaveLength(2);
    const page2 = await call<{ deliveries: Array<{ id: string }>; next_cursor: string | null }>("GET", `${path}?limit=2&cursor=${page1.body.next_cursor}`, {
      token,
    });
    expect(page2.body.deliveries).toHaveLength(1);
    expect(page2.body.next_cursor).toBeNull();
    const all = [...page1.body.deliveries, ...page2.body.deliveries];
    const rows = await deliveriesOf(endpoint);
    expect(all.map((d) => d.id)).toEqual([...rows].sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (y.id > x.id ? 1 : -1)).map((d) => d.id));
    expect((await call<{ deliveries: unknown[] }>("GET", `${path}?status=failed`, { token })).body.deliveries).toEqual([]);

    const target = all[0].id;
    const detail = await call<{ delivery: Record<string, unknown> & { payload: string; attempts: unknown[] } }>("GET", `${path}/${target}`, { token });
    const sent = hook.received.find((r) => r.headers["x-webhook-delivery"] === target);
    expect(detail.body.delivery.payload).toBe(sent?.rawBody);
    expect(detail.body.delivery.attempts).toEqual([
      { number: 1, started_at: expect.any(String), duration_ms: expect.any(Number), response_status: 200, failure_reason: null },
    ]);
    expect(detail.body.delivery.request_headers).toMatchObject({ "X-Webhook-Delivery": target });

    expect((await call("POST", `${path}/${target}/retry`, { token })).body).toMatchObject({ status_code: 200, delivery: { id: target, status: "pending" } });
    expect((await call("POST", `${path}/${target}/retry`, { token })).status).toBe(409);
    await runDueJobs();
    expect(hook.received.filter((r) => r.headers["x-webhook-delivery"] === target)).toHaveLength(2);
    expect((await call("GET", `${path}/wd_missing`, { token })).status).toBe(404);
  });
});
