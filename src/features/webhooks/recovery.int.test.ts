import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { queuedJobs, runDueJobs } from "../../test/jobs";
import { auditLog } from "../audit/audit-log.table";
import { bulkRetries } from "./console/bulk-retries.table";
import { BULK_RETRY_CHUNK, runBulkRetry } from "./console/retry";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { createProvider } from "./providers";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries } from "./webhooks.table";

const receiver = receiversOfThisFile();

type Delivery = { id: string; status: string; created_at: string };
type Page = { status_code: number; deliveries: Delivery[]; next_cursor: string | null };

/** Emits `count` events to the owner's subscribed endpoints; answers the new deliveries of `endpointId`. */
async function emitTo(owner: { id: number; slug: string }, endpointId: string, count: number): Promise<string[]> {
  const db = await getDb();
  const before = new Set(
    (await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))).map((r) => r.id),
  );
  for (let i = 0; i < count; i++) await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: `sp-${i}` } });
  return (await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)))
    .map((r) => r.id)
    .filter((id) => !before.has(id));
}

/** The outage's aftermath, set directly: a delivery's status and creation time (to the microsecond). */
async function setDelivery(id: string, status: "failed" | "retrying" | "delivered", createdAt: string) {
  await (await getDb()).execute(sql`
    update webhook_deliveries set status = ${status}, created_at = ${createdAt}::timestamptz,
      attempt_number = case when ${status} = 'failed' then 25 else 3 end,
      next_retry_at = case when ${status} = 'retrying' then now() + interval '1 hour' else null end,
      last_attempt_failure_reason = case when ${status} = 'delivered' then null else 'HTTP 500' end
    where id = ${id}`);
}

const statusOf = async (ids: string[]) =>
  Object.fromEntries(
    (
      await (
        await getDb()
      )
        .select({ id: webhookDeliveries.id, status: webhookDeliveries.status })
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.id, ids))
    ).map((r) => [r.id, r.status]),
  );

describe("self-serve recovery (decisions §16 Recovery)", () => {
  it("re-enqueues exactly the endpoint's deliveries in the status and window, as a job, audited, and they are delivered", async () => {
    const { client, owner, token, base, register } = await webhookPartner();
    const hook = await receiver(200);
    const endpoint = await register(hook.url, ["prospect.created"]);
    const other = await register(hook.url, ["prospect.created"], "other");
    const ids = await emitTo(owner, endpoint, 8);
    const otherIds = await emitTo(owner, other, 0);
    await runDueJobs(); // the emission's own attempts; the states below are then set as an outage left them
    hook.received.length = 0;
    const [beforeSince, atSince, inside, justBeforeUntil, atUntil, delivered, retrying, afterUntil] = ids;
    await setDelivery(beforeSince, "failed", "2026-11-20T07:59:59.999999Z");
    await setDelivery(atSince, "failed", "2026-11-20T08:00:00.000000Z");
    await setDelivery(inside, "failed", "2026-11-20T10:00:00.000000Z");
    await setDelivery(justBeforeUntil, "failed", "2026-11-20T13:59:59.999999Z");
    await setDelivery(atUntil, "failed", "2026-11-20T14:00:00.000000Z");
    await setDelivery(delivered, "delivered", "2026-11-20T09:00:00Z");
    await setDelivery(retrying, "retrying", "2026-11-20T09:30:00Z");
    await setDelivery(afterUntil, "failed", "2026-11-21T09:00:00Z");
    for (const id of otherIds) await setDelivery(id, "failed", "2026-11-20T09:00:00Z");

    const answer = await call("POST", `${base}/${endpoint}/deliveries/retry`, {
      token,
      body: { status: "failed", since: "2026-11-20T08:00:00Z", until: "2026-11-20T14:00:00Z" },
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ status_code: 202, matched: 3 });
    expect(await queuedJobs("webhook_delivery__bulk_retry")).toHaveLength(1);
    const db = await getDb();
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "deliveries.bulk_retry"), eq(auditLog.ownerId, owner.id)));
    expect(audit).toMatchObject({ actorLabel: `client:${client.clientId}`, subjectType: "bulk_retry", after: { matched: 3 } });

    await runDueJobs();
    const sent = hook.received.map((r) => r.headers["x-webhook-delivery"]).sort();
    expect(sent).toEqual([atSince, inside, justBeforeUntil].sort());
    expect(await statusOf(ids)).toEqual({
      [beforeSince]: "failed",
      [atSince]: "delivered",
      [inside]: "delivered",
      [justBeforeUntil]: "delivered",
      [atUntil]: "failed",
      [delivered]: "delivered",
      [retrying]: "retrying",
      [afterUntil]: "failed",
    });
    const [bulk] = await db.select().from(bulkRetries).where(eq(bulkRetries.ownerId, owner.id));
    expect(bulk).toMatchObject({ status: "done", matched: 3, enqueued: 3, requestedBy: `client:${client.clientId}` });

    // `retrying` without `until`: the waiting delivery goes now, with a fresh schedule.
    hook.received.length = 0;
    const again = await call("POST", `${base}/${endpoint}/deliveries/retry`, { token, body: { status: "retrying", since: "2026-11-20T08:00:00+00:00" } });
    expect(again).toMatchObject({ status: 202, body: { status_code: 202, matched: 1 } });
    await runDueJobs();
    expect(hook.received.map((r) => r.headers["x-webhook-delivery"])).toEqual([retrying]);
    expect((await statusOf([retrying]))[retrying]).toBe("delivered");
  });

  it("re-enqueues a recovery larger than a chunk chunk by chunk, each delivery once, creation-time ties across a chunk's edge included", async () => {
    const { owner, token, base, register } = await webhookPartner();
    const endpoint = await register((await receiver(200)).url, ["prospect.created"]);
    const count = 2 * BULK_RETRY_CHUNK + 7;
    const db = await getDb();
    // Every chunk's edge falls among deliveries created in the same microsecond: only their ids order them.
    await db.execute(sql`
      with events as (
        insert into webhook_events (owner_id, event, body)
        select ${owner.id}, 'prospect.created', '{}' from generate_series(1, ${count}) returning id
      )
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, status, attempt_number, created_at)
      select 'wd_chunks_' || events.id, events.id, ${endpoint}, ${owner.id}, 'prospect.created', 'failed', 25,
        timestamptz '2026-11-20T10:00:00.123456Z' + (events.id % 3) * interval '1 microsecond' from events`);
    const answer = await call("POST", `${base}/${endpoint}/deliveries/retry`, { token, body: { status: "failed", since: "2026-11-20T08:00:00Z" } });
    expect(answer.body).toEqual({ status_code: 202, matched: count });
    const [bulk] = await db.select().from(bulkRetries).where(eq(bulkRetries.ownerId, owner.id));
    expect(await runBulkRetry(db, bulk.id)).toMatchObject({ status: "done", matched: count, enqueued: count });
    const [left] = await db.execute<{ pending: number; failed: number }>(sql`
      select count(*) filter (where status = 'pending')::int as pending, count(*) filter (where status = 'failed')::int as failed
      from webhook_deliveries where endpoint_id = ${endpoint}`);
    expect(left).toEqual({ pending: count, failed: 0 });
    // Their jobs (and the bulk retry's own, finding it done) leave nothing queued for the next tests: the endpoint disabled, they only park.
    await db.execute(sql`update webhook_endpoints set status = 'disabled' where id = ${endpoint}`);
    await runDueJobs();
    expect(await queuedJobs("webhook_delivery__bulk_retry")).toEqual([]);
  });

  it("refuses bad input with 422, another owner's endpoint with 404, a second while one is queued with 409, and changes nothing", async () => {
    const { token, base, register } = await webhookPartner();
    const hook = await receiver(200);
    const endpoint = await register(hook.url, ["prospect.created"]);
    const stranger = await webhookPartner();
    const theirs = await stranger.register(hook.url, ["prospect.created"]);
    const url = `${base}/${endpoint}/deliveries/retry`;
    const bad = [
      [{ status: "failed", since: "yesterday" }, "since"],
      [{ status: "failed", since: "2026-11-20T08:00:00" }, "since"],
      [{ status: "delivered", since: "2026-11-20T08:00:00Z" }, "status"],
      [{ since: "2026-11-20T08:00:00Z" }, "status"],
      [{ status: "failed" }, "since"],
      [{ status: "failed", since: "2026-11-20T08:00:00Z", until: "2026-11-20T08:00:00Z" }, "until"],
      [{ status: "failed", since: "2026-11-20T08:00:00Z", until: "2026-11-19T08:00:00Z" }, "until"],
      [{ status: "failed", since: 1732089600 }, "since"],
      [{ status: "failed", since: "0000-01-01T00:00:00Z" }, "since"],
      [{ status: "failed", since: "2026-02-30T08:00:00Z" }, "since"],
    ] as const;
    for (const [body, field] of bad) {
      const answer = await call<{ status_code: number; error: string; errors: Record<string, string[]> }>("POST", url, { token, body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body).toMatchObject({ status_code: 422, error: "Request is invalid" });
      expect(Object.keys(answer.body.errors)).toContain(field);
    }
    const window = { status: "failed", since: "2026-11-20T08:00:00Z" };
    expect(await call("POST", `${base}/${theirs}/deliveries/retry`, { token, body: window })).toMatchObject({
      status: 404,
      body: { status_code: 404, error: WEBHOOK_MESSAGES.endpointNotFound },
    });
    expect(await call("POST", `${stranger.base}/${theirs}/deliveries/retry`, { token, body: window })).toMatchObject({ status: 403 });
    const db = await getDb();
    const mine = () => db.select().from(bulkRetries).where(sql`${bulkRetries.filter}->>'endpoint_id' = ${endpoint}`);
    expect(await mine()).toEqual([]);
    expect(await queuedJobs("webhook_delivery__bulk_retry")).toEqual([]);

    expect(await call("POST", url, { token, body: window })).toMatchObject({ status: 202, body: { matched: 0 } });
    expect(await call("POST", url, { token, body: window })).toMatchObject({
      status: 409,
      body: { status_code: 409, error: WEBHOOK_MESSAGES.recoveryRunning },
    });
    expect(await mine()).toHaveLength(1);
    await runDueJobs();
    expect(await call("POST", url, { token, body: window })).toMatchObject({ status: 202 });
  });
});

describe("self-serve recovery under the provider path (decisions §7, §16 Recovery)", () => {
  it("re-enqueues the subscription's endpoint's failed deliveries; another subscription's endpoint is 404", async () => {
    const partner = await webhookPartner();
    const hook = await receiver(200);
    const mine = unique("prov");
    const theirs = unique("prov");
    const db = await getDb();
    await createProvider(db, { code: mine, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    await createProvider(db, { code: theirs, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    const register = async (code: string) =>
      (
        await call<{ endpoint: { id: string } }>("POST", `/api/partners/providers/${code}/webhooks/endpoints`, {
          token: partner.token,
          body: { endpoint: { name: code, destination_url: hook.url, events: ["prospect.ready"] } },
        })
      ).body.endpoint.id;
    const endpoint = await register(mine);
    const otherEndpoint = await register(theirs);
    for (const id of ["one", "two"]) await emitEvent(db, { ownerId: partner.owner.id, ownerSlug: partner.owner.slug, event: "prospect.ready", data: { id } });
    await runDueJobs();
    hook.received.length = 0;
    const ids = (await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint))).map((r) => r.id);
    for (const id of ids) await setDelivery(id, "failed", "2026-11-20T09:00:00Z");
    const body = { status: "failed", since: "2026-11-20T08:00:00Z" };
    const path = (code: string, id: string) => `/api/partners/providers/${code}/webhooks/endpoints/${id}/deliveries/retry`;
    expect(await call("POST", path(mine, otherEndpoint), { token: partner.token, body })).toMatchObject({ status: 404 });
    expect(await call("POST", path(mine, endpoint), { token: partner.token, body })).toMatchObject({ status: 202, body: { status_code: 202, matched: 2 } });
    await runDueJobs();
    expect(hook.received.map((r) => r.headers["x-webhook-delivery"]).sort()).toEqual([...ids].sort());
  });
});

describe("the delivery list's window and cursor (decisions §16 Recovery)", () => {
  it("walks every delivery once, newest first, with deliveries created between pages", async () => {
    const { owner, token, base, register } = await webhookPartner();
    const hook = await receiver(200);
    const endpoint = await register(hook.url, ["prospect.created"]);
    const ids = await emitTo(owner, endpoint, 9);
    // Times within one millisecond apart only in microseconds, and two equal (the id breaks the tie).
    const times = [
      "2026-11-20T08:00:00.123100Z",
      "2026-11-20T08:00:00.123200Z",
      "2026-11-20T08:00:00.123300Z",
      "2026-11-20T08:00:00.123300Z",
      "2026-11-20T08:00:00.123400Z",
      "2026-11-20T09:00:00Z",
      "2026-11-20T10:00:00Z",
      "2026-11-20T10:00:00Z",
      "2026-11-20T11:00:00Z",
    ];
    for (const [i, id] of ids.entries()) await setDelivery(id, "delivered", times[i]);
    const list = `${base}/${endpoint}/deliveries`;

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: { status: number; body: Page } = await call<Page>("GET", `${list}?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token });
      expect(answer.status).toBe(200);
      seen.push(...answer.body.deliveries.map((d) => d.id));
      cursor = answer.body.next_cursor;
      await emitTo(owner, endpoint, 1); // a new delivery between pages: after the walk's position
      pages++;
    } while (cursor && pages < 20);
    expect(seen).toHaveLength(ids.length);
    expect(new Set(seen)).toEqual(new Set(ids));
    const byTime = [...ids.keys()].sort((a, b) => (times[b] === times[a] ? (ids[b] > ids[a] ? 1 : -1) : times[b] > times[a] ? 1 : -1)).map((i) => ids[i]);
    expect(seen).toEqual(byTime);

    // The window: since inclusive, until exclusive, to the microsecond; paged with the same filters.
    const windowed = await call<Page>("GET", `${list}?since=2026-11-20T08:00:00.1232Z&until=2026-11-20T10:00:00Z&limit=2`, { token });
    expect(windowed.body.deliveries.map((d) => d.id)).toEqual([ids[5], ids[4]]);
    const rest = await call<Page>("GET", `${list}?since=2026-11-20T08:00:00.1232Z&until=2026-11-20T10:00:00Z&limit=2&cursor=${windowed.body.next_cursor}`, {
      token,
    });
    expect(rest.body.deliveries.map((d) => d.id).sort()).toEqual([ids[2], ids[3]].sort());
    const last = await call<Page>("GET", `${list}?since=2026-11-20T08:00:00.1232Z&until=2026-11-20T10:00:00Z&limit=2&cursor=${rest.body.next_cursor}`, {
      token,
    });
    expect(last.body).toEqual({ status_code: 200, deliveries: [expect.objectContaining({ id: ids[1] })], next_cursor: null });

    // Without parameters: today's answer, the newest 50 and no cursor.
    const plain = await call<Page>("GET", list, { token });
    expect(Object.keys(plain.body).sort()).toEqual(["deliveries", "next_cursor", "status_code"]);
    expect(plain.body.deliveries).toHaveLength(ids.length + pages);
    expect(plain.body.next_cursor).toBeNull();
  });

  it("refuses a tampered cursor, a bad instant and an empty window with 422", async () => {
    const { token, base, register } = await webhookPartner();
    const hook = await receiver(200);
    const endpoint = await register(hook.url, ["prospect.created"]);
    const list = `${base}/${endpoint}/deliveries`;
    const good = Buffer.from(JSON.stringify(["2026-11-20T08:00:00.000000Z", "abc"])).toString("base64url");
    expect((await call("GET", `${list}?cursor=${good}`, { token })).status).toBe(200);
    const tampered = [
      "abc",
      Buffer.from(JSON.stringify(["2026-11-20T08:00:00Z", "abc"])).toString("base64url"),
      Buffer.from(JSON.stringify(["2026-11-20T08:00:00.000000Z", "a'b"])).toString("base64url"),
      Buffer.from(JSON.stringify(["2026-13-40T08:00:00.000000Z", "abc"])).toString("base64url"),
      Buffer.from(JSON.stringify(["2026-02-30T08:00:00.000000Z", "abc"])).toString("base64url"),
      Buffer.from(JSON.stringify(["0000-01-01T00:00:00.000000Z", "abc"])).toString("base64url"),
      Buffer.from("2026-11-20T08:00:00.000Z|abc").toString("base64url"),
      `${good}A`,
    ];
    for (const cursor of tampered) {
      const answer = await call("GET", `${list}?cursor=${encodeURIComponent(cursor)}`, { token });
      expect(answer.status, cursor).toBe(422);
      expect(answer.body).toEqual({ status_code: 422, error: "Request is invalid", errors: { cursor: [WEBHOOK_MESSAGES.notACursor] } });
    }
    expect((await call("GET", `${list}?since=2024-02-29T00:00:00.1234567890Z&until=9999-12-31T23:59:59%2B14:00`, { token })).status).toBe(200);
    for (const query of ["since=0000-01-01T00:00:00Z", "since=yesterday", "until=2026-11-20", "since=2026-11-20T08:00:00Z&until=2026-11-20T07:00:00Z"]) {
      const answer = await call<{ errors: Record<string, string[]> }>("GET", `${list}?${query}`, { token });
      expect(answer.status, query).toBe(422);
      expect(answer.body).toMatchObject({ status_code: 422, error: "Request is invalid" });
    }
  });
});
