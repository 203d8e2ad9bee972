import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { type Db, getDb } from "../../server/db/client";
import { addJob } from "../../server/jobs/add-job";
import { DELIVERY_TASK } from "./emit";
import { postJson } from "./http-post";
import { WEBHOOK_MESSAGES } from "./messages";
import { delayBeforeAttempt, MAX_ATTEMPTS, RATE_LIMIT_PER_MINUTE, RATE_LIMIT_RETRY_SECONDS } from "./schedule";
import { signingSecretsFor } from "./secrets";
import { signatureHeader } from "./signing";
import { type WebhookDelivery, type WebhookEndpoint, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "./tables";

export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };

/** How long a claimed delivery belongs to its worker; a lapsed lease is recovered by the reaper. */
export const leaseSeconds = () => Number(process.env.WEBHOOK_LEASE_SECONDS ?? 30);

const CLAIMABLE = ["pending", "retrying", "rate_limited"] as const;
const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/**
 * One attempt of one delivery (spec Webhook delivery status). Claims the delivery with a lease,
 * applies the per-endpoint rate limit, POSTs the stored body with fresh signature headers, records
 * the attempt, and settles the status: delivered, retrying on the schedule, or failed after 25.
 */
export async function attemptDelivery(deliveryId: string, clock: Clock = systemClock): Promise<WebhookDelivery | undefined> {
  const db = await getDb();
  const now = clock.now();
  const claimed = await claim(db, deliveryId, now);
  if (!claimed) return undefined; // delivered, failed, not yet due, or another worker has it
  const { delivery, endpoint, event } = claimed;
  if (endpoint.deletedAt || endpoint.status !== "active") {
    const reason = endpoint.deletedAt ? WEBHOOK_MESSAGES.endpointDeleted : WEBHOOK_MESSAGES.endpointInactive(endpoint.status);
    return settle(db, delivery, { status: "failed", lastAttemptFailureReason: reason });
  }
  if (!(await takeRateSlot(db, endpoint.id, now))) {
    // spec: excess is rate_limited and retried in 60 seconds without using an attempt.
    const nextRetryAt = addSeconds(now, RATE_LIMIT_RETRY_SECONDS);
    return settle(
      db,
      delivery,
      { status: "rate_limited", nextRetryAt, lastAttemptFailureReason: "rate limited: 1000 deliveries per minute per endpoint" },
      nextRetryAt,
    );
  }
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    ...operatorHeaders(endpoint),
    "Content-Type": "application/json",
    "X-Webhook-Event": event.event,
    "X-Webhook-Delivery": delivery.id,
    "X-Webhook-Timestamp": String(timestamp),
    "X-Webhook-Signature": signatureHeader(await signingSecretsFor(db, endpoint, now), timestamp, event.body),
  };
  const result = await postJson(endpoint.destinationUrl, headers, event.body);
  const number = delivery.attemptNumber + 1;
  const attempted = { attemptNumber: number, lastAttemptedAt: now, durationMs: result.durationMs, lastAttemptFailureReason: result.failure };
  const attempt = {
    deliveryId: delivery.id,
    number,
    startedAt: now,
    durationMs: result.durationMs,
    responseStatus: result.status,
    failureReason: result.failure,
    responseBodyExcerpt: result.bodyExcerpt,
    requestHeaders: headers,
  };
  if (result.failure === null) return settle(db, delivery, { ...attempted, status: "delivered", nextRetryAt: null }, undefined, attempt);
  if (number >= MAX_ATTEMPTS) return settle(db, delivery, { ...attempted, status: "failed", nextRetryAt: null }, undefined, attempt);
  const nextRetryAt = addSeconds(now, delayBeforeAttempt(number + 1));
  return settle(db, delivery, { ...attempted, status: "retrying", nextRetryAt }, nextRetryAt, attempt);
}

/** Claims a due delivery with a lease and loads its endpoint and event, in one statement. */
async function claim(db: Db, deliveryId: string, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "delivering", leaseExpiresAt: addSeconds(now, leaseSeconds()), updatedAt: now })
    .from(webhookEndpoints)
    // The target table cannot be named in a join condition of UPDATE … FROM: it goes in WHERE.
    .innerJoin(webhookEvents, sql`true`)
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookEvents.id, webhookDeliveries.eventId),
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
        inArray(webhookDeliveries.status, [...CLAIMABLE]),
        or(isNull(webhookDeliveries.nextRetryAt), lte(webhookDeliveries.nextRetryAt, now)),
      ),
    )
    .returning({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: { event: webhookEvents.event, body: webhookEvents.body } });
  return row as { delivery: WebhookDelivery; endpoint: WebhookEndpoint; event: { event: string; body: string } } | undefined;
}

/** Records the attempt, settles the status and schedules the next try, atomically. */
async function settle(
  db: Db,
  delivery: WebhookDelivery,
  changes: Partial<WebhookDelivery>,
  retryAt?: Date,
  attempt?: typeof webhookAttempts.$inferInsert,
): Promise<WebhookDelivery> {
  return db.transaction(async (tx) => {
    if (attempt) await tx.insert(webhookAttempts).values(attempt);
    const [settled] = await tx
      .update(webhookDeliveries)
      .set({ ...changes, leaseExpiresAt: null, updatedAt: sql`now()` })
      .where(eq(webhookDeliveries.id, delivery.id))
      .returning();
    if (retryAt) await addJob(tx, DELIVERY_TASK, { deliveryId: delivery.id }, { runAt: retryAt });
    return settled;
  });
}

/**
 * Per-endpoint window of one minute, started by the first delivery after the previous window ended:
 * one atomic statement counts this delivery in and says whether it is within the 1000.
 */
async function takeRateSlot(db: Db, endpointId: string, now: Date): Promise<boolean> {
  const windowStart = new Date(now.getTime() - 60_000);
  const [row] = await db.execute<{ count: number }>(sql`
    update webhook_endpoints set
      rate_window_started_at = case when rate_window_started_at is null or rate_window_started_at <= ${windowStart.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else rate_window_started_at end,
      rate_window_count = case when rate_window_started_at is null or rate_window_started_at <= ${windowStart.toISOString()}::timestamptz then 1 else rate_window_count + 1 end
    where id = ${endpointId}
    returning rate_window_count as count`);
  return row.count <= RATE_LIMIT_PER_MINUTE;
}

/** spec Delivery mechanics 5: operator headers go first and never override Content-Type or X-Webhook-*. */
export function operatorHeaders(endpoint: Pick<WebhookEndpoint, "staticHeaders">): Record<string, string> {
  return Object.fromEntries(
    Object.entries(endpoint.staticHeaders ?? {}).filter(([name]) => {
      const lower = name.toLowerCase();
      return lower !== "content-type" && lower !== "content-length" && !lower.startsWith("x-webhook-");
    }),
  );
}
