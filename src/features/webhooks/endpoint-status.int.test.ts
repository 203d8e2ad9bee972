import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { attemptDelivery, type Clock } from "./deliver";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookAttempts, webhookDeliveries, webhookRateWindows } from "./webhooks.table";

const receiver = receiversOfThisFile();

const deliveriesOf = async (endpointId: string) => (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

const emit = async (owner: { id: number; slug: string }, id: string) =>
  emitEvent(await getDb(), { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.ready", data: { id } });

type DeliveryView = { id: string; status: string; attempt_number: number; next_retry_at: string | null; last_attempt_failure_reason: string | null };

/** A partner with one endpoint for `prospect.ready` and helpers over the real routes. */
async function setup(status = 200) {
  const partner = await webhookPartner();
  const hook = await receiver(status);
  const endpoint = await partner.register(hook.url, ["prospect.ready"]);
  const setStatus = async (to: string) => {
    const answer = await call("PUT", `${partner.base}/${endpoint}`, { token: partner.token, body: { endpoint: { status: to } } });
    expect(answer.status).toBe(200);
  };
  const view = async (id: string) =>
    (await call<{ delivery: DeliveryView }>("GET", `${partner.base}/${endpoint}/deliveries/${id}`, { token: partner.token })).body.delivery;
  return { ...partner, hook, endpoint, setStatus, view };
}

describe("endpoint status never fails a delivery (spec Webhook delivery status, Delivery mechanics 1)", () => {
  it("records no delivery for an endpoint that is not active when the event occurs", async () => {
    const { owner, register, base, token, hook } = await setup();
    for (const status of ["suspended", "disabled"]) {
      const endpoint = await register(hook.url, ["prospect.ready"]);
      await call("PUT", `${base}/${endpoint}`, { token, body: { endpoint: { status } } });
      await emit(owner, `while-${status}`);
      expect(await deliveriesOf(endpoint)).toEqual([]);
    }
  });

  it.each(["suspended", "disabled"])("a retrying delivery waits while its endpoint is %s and resumes with its attempt count", async (status) => {
    const { owner, hook, endpoint, setStatus, view } = await setup(500);
    await emit(owner, `retry-${status}`);
    await runDueJobs();
    const [first] = await deliveriesOf(endpoint);
    expect(first).toMatchObject({ status: "retrying", attemptNumber: 1, lastAttemptFailureReason: "HTTP 500" });
    const [windowBefore] = await (await getDb()).select().from(webhookRateWindows).where(eq(webhookRateWindows.endpointId, endpoint));

    await setStatus(status);
    const due: Clock = { now: () => first.nextRetryAt ?? new Date() };
    expect(await attemptDelivery(first.id, due)).toBeUndefined();
    expect(hook.received).toHaveLength(1);
    // What the partner sees while it waits: its status and attempt count, no next try scheduled.
    expect(await view(first.id)).toMatchObject({ status: "retrying", attempt_number: 1, next_retry_at: null, last_attempt_failure_reason: "HTTP 500" });
    const [windowAfter] = await (await getDb()).select().from(webhookRateWindows).where(eq(webhookRateWindows.endpointId, endpoint));
    expect(windowAfter.count).toBe(windowBefore.count);
    // Another job for it while the endpoint is away does nothing either.
    expect(await attemptDelivery(first.id, { now: () => new Date(Date.now() + 86_400_000) })).toBeUndefined();
    expect(hook.received).toHaveLength(1);

    hook.answer({ status: 200 });
    await setStatus("active");
    await runDueJobs();
    expect(hook.received.map((r) => r.headers["x-webhook-delivery"])).toEqual([first.id, first.id]);
    expect(await view(first.id)).toMatchObject({ status: "delivered", attempt_number: 2, next_retry_at: null, last_attempt_failure_reason: null });
  });

  it("a delivery never attempted waits too, then goes out on the endpoint's return", async () => {
    const { owner, hook, endpoint, setStatus, view } = await setup();
    await emit(owner, "pending");
    await setStatus("suspended");
    await runDueJobs();
    const [delivery] = await deliveriesOf(endpoint);
    expect(hook.received).toEqual([]);
    expect(await view(delivery.id)).toMatchObject({ status: "pending", attempt_number: 0, next_retry_at: null });
    await setStatus("disabled"); // from one inactive status to another: still waiting
    await runDueJobs();
    expect(hook.received).toEqual([]);
    await setStatus("active");
    await runDueJobs();
    expect(hook.received.map((r) => r.headers["x-webhook-delivery"])).toEqual([delivery.id]);
    expect(await view(delivery.id)).toMatchObject({ status: "delivered", attempt_number: 1 });
  });

  it("still fails only after attempt 25, with the attempts before and after a suspension counted once", async () => {
    const { owner, hook, endpoint, setStatus, view } = await setup(500);
    await emit(owner, "twenty-five");
    const [delivery] = await deliveriesOf(endpoint);
    let now = new Date();
    for (let attempt = 1; attempt <= 24; attempt++) {
      const settled = await attemptDelivery(delivery.id, { now: () => now });
      expect(settled).toMatchObject({ status: "retrying", attemptNumber: attempt });
      now = settled?.nextRetryAt ?? now;
    }
    await setStatus("suspended");
    expect(await attemptDelivery(delivery.id, { now: () => now })).toBeUndefined();
    expect(await view(delivery.id)).toMatchObject({ status: "retrying", attempt_number: 24, next_retry_at: null });
    await setStatus("active");
    const last = await attemptDelivery(delivery.id, { now: () => new Date(now.getTime() + 1000) });
    expect(last).toMatchObject({ status: "failed", attemptNumber: 25, nextRetryAt: null, lastAttemptFailureReason: "HTTP 500" });
    expect(hook.received).toHaveLength(25);
    expect(await (await getDb()).select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id))).toHaveLength(25);
  });

  it("deleting the endpoint ends its open deliveries failed with a reason, and nothing more is sent", async () => {
    const { owner, hook, endpoint, base, token } = await setup(500);
    await emit(owner, "attempted");
    await runDueJobs();
    await emit(owner, "never-attempted");
    const rows = await deliveriesOf(endpoint);
    expect(rows.map((row) => row.status).sort()).toEqual(["pending", "retrying"]);
    expect((await call("DELETE", `${base}/${endpoint}`, { token })).status).toBe(200);
    const ended = await deliveriesOf(endpoint);
    expect(ended.map((row) => [row.status, row.nextRetryAt, row.lastAttemptFailureReason])).toEqual([
      ["failed", null, WEBHOOK_MESSAGES.endpointDeleted],
      ["failed", null, WEBHOOK_MESSAGES.endpointDeleted],
    ]);
    expect(ended.find((row) => row.id === rows.find((r) => r.status === "retrying")?.id)?.attemptNumber).toBe(1);
    await runDueJobs();
    for (const row of ended) expect(await attemptDelivery(row.id, { now: () => new Date(Date.now() + 86_400_000) })).toBeUndefined();
    expect(hook.received).toHaveLength(1);
    // The endpoint is gone from the API, with its deliveries.
    expect((await call("GET", `${base}/${endpoint}/deliveries`, { token })).status).toBe(404);
  });

  it("an attempt in flight when the endpoint is deleted is recorded, and the delivery stays failed", async () => {
    const { owner, hook, endpoint, base, token } = await setup();
    hook.answer({ status: 200, delayMs: 1500 });
    await emit(owner, "in-flight");
    const [delivery] = await deliveriesOf(endpoint);
    const attempt = attemptDelivery(delivery.id);
    while (hook.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await call("DELETE", `${base}/${endpoint}`, { token })).status).toBe(200);
    expect(await attempt).toBeUndefined(); // the lease fence: the late result settles nothing
    const [row] = await deliveriesOf(endpoint);
    expect(row).toMatchObject({ status: "failed", lastAttemptFailureReason: WEBHOOK_MESSAGES.endpointDeleted, leaseExpiresAt: null });
    expect(await (await getDb()).select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id))).toMatchObject([
      { number: 1, responseStatus: 200 },
    ]);
  });
});
