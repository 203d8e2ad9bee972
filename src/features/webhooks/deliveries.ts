import { and, desc, eq, lt, or, sql } from "drizzle-orm";
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

const cursorOf = (row: Row) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");

function parseCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(at);
  if (!id || Number.isNaN(createdAt.getTime()))
    throw errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, { cursor: ["is not a cursor from a previous page"] });
  return { createdAt, id };
}

/**
 * The delivery routes of an owner and of a provider subscription share these functions (decisions
 * §7); each first finds the endpoint among the subscriber's, so another subscriber's answers 404.
 */

/** Newest first, keyset pagination (decisions §7). */
export async function listDeliveries(
  tx: Tx,
  subscriber: Subscriber,
  endpointId: string,
  options: { status?: WebhookDelivery["status"]; cursor?: string; limit: number },
) {
  await findEndpoint(tx, subscriber, endpointId);
  const after = options.cursor ? parseCursor(options.cursor) : undefined;
  const rows = await tx
    .select({ delivery: webhookDeliveries, event: webhookEvents.event })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        options.status ? eq(webhookDeliveries.status, options.status) : undefined,
        after
          ? or(lt(webhookDeliveries.createdAt, after.createdAt), and(eq(webhookDeliveries.createdAt, after.createdAt), lt(webhookDeliveries.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit).map((row) => row.delivery);
  return { deliveries: page.map(deliveryView), next_cursor: rows.length > options.limit ? cursorOf(page[page.length - 1]) : null };
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
 * attempts under the same delivery id, and their jobs are added in the caller's transaction.
 * Answers how many were re-enqueued.
 */
export async function reenqueueDeliveries(tx: Tx, ids: string[], statuses: WebhookDelivery["status"][] = ["failed"]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await tx.execute<{ retried: number }>(sql`
    with retried as (
      update webhook_deliveries d set status = 'pending', attempt_number = 0, next_retry_at = null, updated_at = now()
      where d.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
        and d.status in (select jsonb_array_elements_text(${JSON.stringify(statuses)}::jsonb))
      returning d.id
    ), jobs as (${deliveryJobsFrom(sql`select id, null::timestamptz as run_at from retried`)}
    )
    select (select count(*)::int from retried) as retried, (select count(*) from jobs) as _jobs`);
  return row.retried;
}
