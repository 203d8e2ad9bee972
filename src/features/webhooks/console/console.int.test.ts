import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import type { ConsoleUser } from "@/server/trpc/context";
import { unique } from "../../../test/factories";
import { receiversOfThisFile } from "../../../test/https-receiver";
import { queuedJobs, runDueJobs } from "../../../test/jobs";
import { emitEvent } from "../emit";
import { webhookPartner } from "../webhook-test-helpers";
import { webhookDeliveries, webhookEndpoints } from "../webhooks.table";
import { bulkRetries } from "./bulk-retries.table";
import { runBulkRetry } from "./retry";

const receiver = receiversOfThisFile();
const operator: ConsoleUser = { id: 1, email: "ops@example.com", role: "operator" };
const manager: ConsoleUser = { id: 2, email: "am@example.com", role: "account_manager" };

async function as(user: ConsoleUser | null) {
  return consoleRouter.createCaller({ db: await getDb(), log: logger(), requestId: "t", user }).webhooks;
}

/**
 * An owner with one endpoint at a local HTTPS receiver answering 500, and `count` deliveries that
 * each had one real attempt and were then marked `failed`, as after their 25th.
 */
async function failedDeliveries(count = 1, events: Array<"policy.created" | "move_out.initiated" | "prospect.created"> = ["policy.created"]) {
  const partner = await webhookPartner();
  const hook = await receiver({ status: 500, body: "receiver is down" });
  const endpoint = await partner.register(hook.url, events);
  const db = await getDb();
  const refs = { policy: unique("POL"), prospect: unique("sp"), moveOut: Math.floor(Math.random() * 1_000_000_000) };
  for (let i = 0; i < count; i++) {
    const event = events[i % events.length];
    const data =
      event === "policy.created"
        ? { id: i, policy_number: refs.policy, source_prospect_id: refs.prospect }
        : event === "move_out.initiated"
          ? { move_out_id: refs.moveOut, external_id: "mo", status: "initiated" }
          : { id: refs.prospect };
    await emitEvent(db, { ownerId: partner.owner.id, ownerSlug: partner.owner.slug, event, data });
  }
  await runDueJobs();
  await db.update(webhookDeliveries).set({ status: "failed", attemptNumber: 25, nextRetryAt: null }).where(eq(webhookDeliveries.endpointId, endpoint));
  // The failed attempts' retry jobs are dropped, as after the 25th.
  await db.execute(sql`delete from graphile_worker._private_jobs`);
  const ids = (await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint))).map((r) => r.id);
  return { ...partner, hook, endpoint, ids, refs };
}

async function auditOf(subjectType: string, subjectId: string | number) {
  return (
    await consoleRouter
      .createCaller({ db: await getDb(), log: logger(), requestId: "t", user: manager })
      .audit.search({ subjectType, subjectId: String(subjectId) })
  ).map(({ actor, action, before, after }) => ({ actor, action, before, after }));
}

describe("console deliveries: search and detail (docs/decisions.md, Console: deliveries)", () => {
  it("finds deliveries by owner, endpoint, event, status, time range and the record they are about, newest first", async () => {
    const a = await failedDeliveries(3, ["policy.created", "move_out.initiated", "prospect.created"]);
    const b = await failedDeliveries(1);
    const staff = await as(manager);
    const ids = async (filter: Parameters<typeof staff.deliveries.search>[0]) => (await staff.deliveries.search(filter)).deliveries.map((d) => d.id).sort();

    expect(await ids({ owner: a.owner.slug })).toEqual([...a.ids].sort());
    expect(await ids({ endpoint_id: b.endpoint })).toEqual(b.ids);
    expect(await ids({ owner: a.owner.slug, event: "move_out.initiated" })).toHaveLength(1);
    expect(await ids({ owner: a.owner.slug, status: "delivered" })).toEqual([]);
    expect(await ids({ owner: a.owner.slug, status: "failed" })).toHaveLength(3);
    expect(await ids({ policy_number: a.refs.policy })).toHaveLength(1);
    expect(await ids({ source_prospect_id: a.refs.prospect })).toHaveLength(2); // the policy's and prospect.created's
    expect(await ids({ move_out_id: a.refs.moveOut })).toHaveLength(1);
    expect(await ids({ owner: a.owner.slug, from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await ids({ owner: a.owner.slug, to: new Date(Date.now() + 60_000).toISOString() })).toHaveLength(3);

    const [row] = (await staff.deliveries.search({ endpoint_id: b.endpoint })).deliveries;
    expect(row).toMatchObject({
      owner_slug: b.owner.slug,
      endpoint_id: b.endpoint,
      destination_url: b.hook.url,
      event: "policy.created",
      status: "failed",
      attempt_number: 25,
      policy_number: b.refs.policy,
      source_prospect_id: b.refs.prospect,
    });
    await expect(staff.deliveries.search({ owner: "no-such-owner" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("pages with a keyset cursor, without gaps or repeats", async () => {
    const a = await failedDeliveries(5);
    const staff = await as(operator);
    const first = await staff.deliveries.search({ owner: a.owner.slug, limit: 2 });
    const second = await staff.deliveries.search({ owner: a.owner.slug, limit: 2, cursor: first.next_cursor ?? undefined });
    const third = await staff.deliveries.search({ owner: a.owner.slug, limit: 2, cursor: second.next_cursor ?? undefined });
    const seen = [...first.deliveries, ...second.deliveries, ...third.deliveries].map((d) => d.id);
    expect(new Set(seen).size).toBe(5);
    expect(seen.sort()).toEqual([...a.ids].sort());
    expect(third.next_cursor).toBeNull();
    await expect(staff.deliveries.search({ cursor: "garbage" })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
  });

  it("shows a delivery by its id with the exact payload, the headers as sent and every attempt", async () => {
    const a = await failedDeliveries(1);
    const detail = await (await as(manager)).deliveries.detail({ id: a.ids[0] });
    expect(JSON.parse(detail.payload)).toEqual({
      event: "policy.created",
      property_owner_slug: a.owner.slug,
      data: { insurance_policy: { id: 0, policy_number: a.refs.policy, source_prospect_id: a.refs.prospect } },
    });
    expect(a.hook.received[0].rawBody).toBe(detail.payload);
    expect(detail.attempts).toEqual([
      expect.objectContaining({ number: 1, response_status: 500, response_excerpt: "receiver is down", failure_reason: expect.any(String) }),
    ]);
    expect(detail.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect(detail.request_headers).toMatchObject({ "X-Webhook-Delivery": a.ids[0], "X-Webhook-Event": "policy.created" });
    const secret = (await a.secrets()).current;
    expect(JSON.stringify(detail)).not.toContain(secret);
    await expect((await as(manager)).deliveries.detail({ id: "wd_nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("gives an anonymous caller nothing", async () => {
    const anonymous = await as(null);
    await expect(anonymous.deliveries.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.deliveries.detail({ id: "wd_x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.deliveries.retry({ id: "wd_x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.bulkRetries.count({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.bulkRetries.start({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.bulkRetries.progress({ id: 1 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.endpoints.detail({ id: "we_x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.endpoints.setStatus({ id: "we_x", status: "active" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("console deliveries: retry one (spec Webhook delivery status: failed → re-enqueued)", () => {
  it("an operator re-enqueues a failed delivery, audited; it is delivered again under the same id", async () => {
    const a = await failedDeliveries(1);
    const id = a.ids[0];
    await expect((await as(manager)).deliveries.retry({ id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await auditOf("webhook_delivery", id)).toEqual([]);

    expect(await (await as(operator)).deliveries.retry({ id })).toEqual({ id, status: "pending", attempt_number: 0 });
    expect(await auditOf("webhook_delivery", id)).toEqual([
      {
        actor: "ops@example.com",
        action: "deliveries.retry",
        before: { status: "failed", attempt_number: 25, last_attempt_failure_reason: expect.any(String) },
        after: { status: "pending", attempt_number: 0 },
      },
    ]);
    a.hook.answer({ status: 200 });
    await runDueJobs();
    const detail = await (await as(operator)).deliveries.detail({ id });
    expect(detail.status).toBe("delivered");
    expect(detail.attempts.map((x) => x.response_status)).toEqual([500, 200]);
    expect(a.hook.received.at(-1)?.headers["x-webhook-delivery"]).toBe(id);
    // Still scheduled (or unknown): refused as by the Partner API.
    await (await getDb()).update(webhookDeliveries).set({ status: "retrying" }).where(eq(webhookDeliveries.id, id));
    await expect((await as(operator)).deliveries.retry({ id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect((await as(operator)).deliveries.retry({ id: "wd_nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("console deliveries: bulk retry (dry-run count, then a job with progress)", () => {
  it("counts, then re-enqueues every failed delivery matching the filter and they reach the receiver", async () => {
    const a = await failedDeliveries(3);
    const other = await failedDeliveries(2);
    const filter = { owner: a.owner.slug };
    expect(await (await as(manager)).bulkRetries.count(filter)).toEqual({ matched: 3 });
    await expect((await as(manager)).bulkRetries.start(filter)).rejects.toMatchObject({ code: "FORBIDDEN" });

    const started = await (await as(operator)).bulkRetries.start(filter);
    expect(started).toMatchObject({ matched: 3, enqueued: 0, status: "queued", requested_by: "ops@example.com" });
    expect(await queuedJobs("webhook_delivery__bulk_retry")).toHaveLength(1);
    expect(await auditOf("bulk_retry", started.id)).toEqual([
      {
        actor: "ops@example.com",
        action: "deliveries.bulk_retry",
        before: { failed_matching: 3 },
        after: { filter, matched: 3, status: "queued" },
      },
    ]);

    a.hook.answer({ status: 200 });
    await runDueJobs(); // the bulk retry job, which adds the delivery jobs
    expect(await (await as(manager)).bulkRetries.progress({ id: started.id })).toMatchObject({ status: "done", matched: 3, enqueued: 3 });
    await runDueJobs();
    const after = await (await as(manager)).deliveries.search({ owner: a.owner.slug });
    expect(after.deliveries.map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
    expect(a.hook.received.filter((r) => r.headers["x-webhook-delivery"]).length).toBe(6); // 3 failed + 3 retried
    // The other owner's failed deliveries were not touched.
    expect((await (await as(manager)).deliveries.search({ owner: other.owner.slug, status: "failed" })).deliveries).toHaveLength(2);
    // A second run of the same job does nothing.
    const db = await getDb();
    const [row] = await db.select().from(bulkRetries).where(eq(bulkRetries.id, started.id));
    expect(row.finishedAt).not.toBeNull();
    expect((await (await as(manager)).bulkRetries.recent()).map((r) => r.id)).toContain(started.id);
  });

  it("resumes a bulk retry whose worker died mid-way (row left running, part enqueued) when its job runs again", async () => {
    const a = await failedDeliveries(3);
    const started = await (await as(operator)).bulkRetries.start({ owner: a.owner.slug });
    const db = await getDb();
    // What a worker killed after its first chunk leaves: the row running with its progress, one
    // delivery re-enqueued, and the job (unlocked later by system__unlock_stale_workers) to run again.
    await db.update(bulkRetries).set({ status: "running", startedAt: new Date(), enqueued: 1 }).where(eq(bulkRetries.id, started.id));
    await db.update(webhookDeliveries).set({ status: "pending" }).where(eq(webhookDeliveries.id, a.ids[0]));
    // The CLI's inline run does not take a running bulk retry (it may be alive elsewhere).
    expect(await runBulkRetry(db, started.id)).toBeUndefined();
    a.hook.answer({ status: 200 });
    await runDueJobs();
    expect(await (await as(manager)).bulkRetries.progress({ id: started.id })).toMatchObject({ status: "done", matched: 3, enqueued: 3 });
    expect((await (await as(manager)).deliveries.search({ owner: a.owner.slug, status: "failed" })).deliveries).toHaveLength(0);
  });

  it("skips deliveries of deleted endpoints and refuses a bad filter", async () => {
    const a = await failedDeliveries(2);
    await (await getDb()).update(webhookEndpoints).set({ deletedAt: new Date() }).where(eq(webhookEndpoints.id, a.endpoint));
    expect(await (await as(operator)).bulkRetries.count({ owner: a.owner.slug })).toEqual({ matched: 0 });
    await expect((await as(operator)).deliveries.retry({ id: a.ids[0] })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect((await as(operator)).bulkRetries.count({ owner: a.owner.slug, from: "yesterday" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("console endpoints: status and static headers (operators only, audited)", () => {
  it("suspends and reactivates an endpoint through the Partner API's update; an account manager cannot", async () => {
    const a = await failedDeliveries(1);
    await expect((await as(manager)).endpoints.setStatus({ id: a.endpoint, status: "suspended" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await (await as(operator)).endpoints.setStatus({ id: a.endpoint, status: "suspended" })).toMatchObject({ id: a.endpoint, status: "suspended" });
    expect(await (await as(operator)).endpoints.setStatus({ id: a.endpoint, status: "active" })).toMatchObject({ status: "active" });
    expect(await auditOf("webhook_endpoint", a.endpoint)).toEqual([
      { actor: "ops@example.com", action: "endpoints.status", before: { status: "suspended" }, after: { status: "active" } },
      { actor: "ops@example.com", action: "endpoints.status", before: { status: "active" }, after: { status: "suspended" } },
    ]);
    expect((await (await as(manager)).endpoints.detail({ id: a.endpoint })).status).toBe("active");
  });

  it("sets static headers with the CLI's rules, audits names only, and deliveries send them", async () => {
    const a = await failedDeliveries(1);
    await expect((await as(manager)).endpoints.setHeaders({ id: a.endpoint, set: { "X-Key": "v" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await as(operator)).endpoints.setHeaders({ id: a.endpoint, set: { "X-Webhook-Event": "forged" } })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
    });
    const updated = await (await as(operator)).endpoints.setHeaders({ id: a.endpoint, set: { "X-Partner-Key": "s3cret" } });
    expect(updated.static_headers).toEqual({ "X-Partner-Key": "s3cret" });
    const log = await auditOf("webhook_endpoint", a.endpoint);
    expect(log).toEqual([
      {
        actor: "ops@example.com",
        action: "endpoints.headers",
        before: { static_header_names: [] },
        after: { static_header_names: ["X-Partner-Key"], set: ["X-Partner-Key"], unset: [] },
      },
    ]);
    expect(JSON.stringify(log)).not.toContain("s3cret");
    a.hook.answer({ status: 200 });
    await (await as(operator)).deliveries.retry({ id: a.ids[0] });
    await runDueJobs();
    expect(a.hook.received.at(-1)?.headers["x-partner-key"]).toBe("s3cret");
    expect((await (await as(manager)).deliveries.detail({ id: a.ids[0] })).request_headers).toMatchObject({ "X-Partner-Key": "s3cret" });
  });
});
