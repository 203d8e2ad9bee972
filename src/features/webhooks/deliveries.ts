import { and, desc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors, GATEWAY_MESSAGES } from "../../server/errors";
import { findEndpoint, type Subscriber } from "./endpoints";
import { WEBHOOK_MESSAGES } from "./messages";
import { webhookDeliveryReplays } from "./replays.table";
import { deliveryJobsFrom } from "./webhook_delivery__attempt";
import { type WebhookDelivery, webhookAttempts, webhookDeliveries, webhookEvents } from "./webhooks.table";

type Row = WebhookDelivery;

export function deliveryView(delivery: Row) {
  return {
    id: delivery.id,
    event: delivery.event,
    status: delivery.status,
    attempt_number: delivery.attemptNumber,
    last_attempted_at: delivery.lastAttemptedAt?.toISOString() ?? null,
    next_retry_at: delivery.nextRetryAt?.toISOString() ?? null,
    duration_ms: delivery.durationMs,
    last_attempt_failure_reason: delivery.lastAttemptFailureReason,
    test: delivery.test,
    created_at: delivery.createdAt.toISOString(),
  };
}

/**
 * The list's cursor (docs/decisions.md "Partner developer: self-serve recovery"): the last row's
 * `created_at` in UTC to the microsecond (as PostgreSQL keeps it: a millisecond ISO string would skip the
 * rows created later in the same millisecond) and its id, as base64url JSON. Opaque to partners;
 * anything else, or anything edited, is refused with 422 rather than read as some other position.
 */
const cursorOf = (createdAtText: string, id: string) => Buffer.from(JSON.stringify([createdAtText, id])).toString("base64url");

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Not only the shape: a day PostgreSQL would refuse (2026-02-30, year 0000) is not a cursor either. */
const isRealInstant = (at: string) => !at.startsWith("0000-") && !Number.isNaN(Date.parse(at)) && new Date(at).toISOString() === `${at.slice(0, 23)}Z`;

function parseCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(decoded) && decoded.length === 2) {
      const [at, id] = decoded as unknown[];
      if (
        typeof at === "string" &&
        typeof id === "string" &&
        CURSOR_TIME.test(at) &&
        isRealInstant(at) &&
        /^[\w-]{1,100}$/.test(id) &&
        cursorOf(at, id) === cursor
      )
        return { createdAt: at, id };
    }
  } catch {
    // falls through to the error below
  }
  throw errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, { cursor: [WEBHOOK_MESSAGES.notACursor] });
}

/**
 * The delivery routes of an owner and of a provider subscription share these functions (decisions
 * §7); each first finds the endpoint among the subscriber's, so another subscriber's answers 404.
 */

/**
 * Newest first, keyset pagination on (created_at, id) (decisions §7): a page follows the previous
 * one's last row whatever was inserted meanwhile (new deliveries sort before the walk's position),
 * so a walk sees every row that existed when it started once. `since` (created at or after) and
 * `until` (created before) bound the window (decisions §16 Recovery); without them, today's list.
 */
export async function listDeliveries(
  tx: Tx,
  subscriber: Subscriber,
  endpointId: string,
  options: { status?: WebhookDelivery["status"]; since?: string; until?: string; cursor?: string; limit: number },
) {
  if (options.since && options.until && Date.parse(options.until) <= Date.parse(options.since))
    throw errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, { until: [WEBHOOK_MESSAGES.untilNotAfterSince] });
  const after = options.cursor ? parseCursor(options.cursor) : undefined;
  await findEndpoint(tx, subscriber, endpointId);
  const d = webhookDeliveries;
  const rows = await tx
    .select({ delivery: d, createdAtText: sql<string>`to_char(${d.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` })
    .from(d)
    .where(
      and(
        eq(d.endpointId, endpointId),
        options.status ? eq(d.status, options.status) : undefined,
        // As PostgreSQL reads the instants: a JavaScript Date would drop their microseconds.
        options.since ? sql`${d.createdAt} >= ${options.since}::timestamptz` : undefined,
        options.until ? sql`${d.createdAt} < ${options.until}::timestamptz` : undefined,
        after ? sql`(${d.createdAt}, ${d.id}) < (${after.createdAt}::timestamptz, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    deliveries: page.map((row) => deliveryView(row.delivery)),
    next_cursor: rows.length > options.limit && last ? cursorOf(last.createdAtText, last.delivery.id) : null,
  };
}

async function findDelivery(tx: Tx, endpointId: string, id: string) {
  const [row] = await tx
    .select({ delivery: webhookDeliveries, event: webhookEvents.event, body: webhookEvents.body })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
  if (!row) throw errors.notFound(WEBHOOK_MESSAGES.deliveryNotFound);
  return row;
}

/** One delivery with the exact raw body sent, the last request's headers and every attempt. */
export async function deliveryDetail(tx: Tx, subscriber: Subscriber, endpointId: string, id: string) {
  await findEndpoint(tx, subscriber, endpointId);
  const row = await findDelivery(tx, endpointId, id);
  const attempts = await tx.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(webhookAttempts.number, webhookAttempts.id);
  return {
    ...deliveryView(row.delivery),
    payload: row.body,
    request_headers: attempts.at(-1)?.requestHeaders ?? null,
    attempts: attempts.map((attempt) => ({
      number: attempt.number,
      started_at: attempt.startedAt.toISOString(),
      duration_ms: attempt.durationMs,
      response_status: attempt.responseStatus,
      failure_reason: attempt.failureReason,
    })),
  };
}

/**
 * spec Webhook delivery status, failed → re-enqueued: a failed delivery gets a fresh schedule of 25
 * attempts; a delivered one is replayed with the same delivery id. Anything still scheduled: 409.
 */
export async function retryDelivery(db: Tx, subscriber: Subscriber, endpointId: string, id: string) {
  return db.transaction(async (tx) => {
    await findEndpoint(tx, subscriber, endpointId);
    const row = await findDelivery(tx, endpointId, id);
    const delivery = row.delivery.status === "delivered" ? await claimReplay(tx, id) : row.delivery;
    return retryFoundDelivery(tx, delivery);
  });
}

/** decisions §15: a `delivered` delivery is replayed through the Partner API at most once a minute. */
export const REPLAY_INTERVAL_SECONDS = 60;

/**
 * Records the replay of a delivered delivery, or refuses it with 429 and the seconds left. The mark
 * lives in PostgreSQL (`webhook_delivery_replays`), so every web process sees it. The delivery's row
 * is locked first, so of two concurrent retries one replays and the other then finds it scheduled
 * (409). Answers the delivery as it now stands. The console's retry is not limited (operators).
 */
async function claimReplay(tx: Tx, id: string): Promise<WebhookDelivery> {
  const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).for("no key update");
  if (delivery.status !== "delivered") return delivery; // retried meanwhile: retryFoundDelivery decides
  const replays = webhookDeliveryReplays;
  const claimed = await tx
    .insert(replays)
    .values({ deliveryId: id, replayedAt: sql`now()` })
    .onConflictDoUpdate({
      target: replays.deliveryId,
      set: { replayedAt: sql`now()` },
      setWhere: sql`${replays.replayedAt} <= now() - make_interval(secs => ${REPLAY_INTERVAL_SECONDS})`,
    })
    .returning({ id: replays.deliveryId });
  if (claimed.length) return delivery;
  const [last] = await tx
    .select({ wait: sql<number>`ceil(extract(epoch from ${replays.replayedAt} + make_interval(secs => ${REPLAY_INTERVAL_SECONDS}) - now()))::int` })
    .from(replays)
    .where(eq(replays.deliveryId, id));
  throw errors.tooManyRequests(WEBHOOK_MESSAGES.replayTooSoon, last.wait);
}

/**
 * The retry of one delivery already found (the Partner API's route, the console's button): 409 unless
 * it is `failed` or `delivered`, then re-enqueued as `reenqueueDeliveries` does it.
 */
export async function retryFoundDelivery(tx: Tx, delivery: WebhookDelivery) {
  if (!RETRYABLE.includes(delivery.status)) throw errors.conflict(WEBHOOK_MESSAGES.alreadyScheduled);
  await reenqueueDeliveries(tx, [delivery.id], RETRYABLE);
  const [row] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
  return deliveryView(row);
}

const RETRYABLE: WebhookDelivery["status"][] = ["failed", "delivered"];

/**
 * spec Webhook delivery status, failed → re-enqueued, for any set of deliveries in one statement (one
 * retry, or a chunk of a bulk retry): those still in one of `statuses` start a fresh schedule of 25
 * attempts under the same delivery id (a `retrying` one is attempted now and keeps its count), and
 * their jobs are added in the caller's transaction.
 * Answers how many were re-enqueued.
 */
export async function reenqueueDeliveries(tx: Tx, ids: string[], statuses: WebhookDelivery["status"][] = ["failed"]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await tx.execute<{ retried: number }>(sql`
    with retried as (
      update webhook_deliveries d set status = 'pending', next_retry_at = null, updated_at = now(),
        -- A retrying delivery is attempted now, keeping its count: a recovery never extends the 25
        -- attempts (docs/decisions.md, "Second security review"); a failed or delivered one starts anew.
        attempt_number = case when d.status = 'retrying' then d.attempt_number else 0 end
      where d.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
        and d.status in (select jsonb_array_elements_text(${JSON.stringify(statuses)}::jsonb))
      returning d.id
    ), jobs as (${deliveryJobsFrom(sql`select id, null::timestamptz as run_at from retried`)}
    )
    select (select count(*)::int from retried) as retried, (select count(*) from jobs) as _jobs`);
  return row.retried;
}
