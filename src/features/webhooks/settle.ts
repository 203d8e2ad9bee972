import { sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { logger } from "../../server/log";
import { toDelivery } from "./claim";
import { WEBHOOK_MESSAGES } from "./messages";
import { deliveryJobsFrom } from "./webhook_delivery__attempt";
import type { WebhookDelivery, WebhookEndpoint } from "./webhooks.table";

/** What one attempt (or a decision not to send) leaves on a delivery. */
export type Outcome = {
  id: string;
  status: WebhookDelivery["status"];
  attemptNumber: number;
  lastAttemptedAt: Date | null;
  durationMs: number | null;
  lastAttemptFailureReason: string | null;
  nextRetryAt: Date | null;
  /**
   * The lease its claim took (the fencing token), when outcomes of several claims settle together
   * (the dispatcher's batches); else the batch's `leaseUntil`.
   */
  leaseUntil?: Date;
  /** The HTTP try itself, when one was made (spec: every attempt is recorded). */
  attempt?: {
    number: number;
    startedAt: Date;
    durationMs: number;
    responseStatus: number | null;
    failureReason: string | null;
    responseBodyExcerpt: string | null;
    requestHeaders: Record<string, string>;
  };
};

const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text PostgreSQL can store (text and jsonb hold no NUL, jsonb no lone surrogate): those become U+FFFD. */
export function storable(text: string | null): string | null {
  return text === null ? null : text.replace(UNSTORABLE, "\uFFFD");
}

/**
 * Records the attempts, settles every delivery of a batch and schedules the next tries (one job per
 * retry time), in one statement. A delivery is settled only while the lease taken by its claim
 * (its outcome's `leaseUntil`, else the batch's) still holds it (`lease_expires_at` is the fencing token): when the reaper has already handed a
 * lapsed delivery to another worker, the attempt is still recorded but the late result changes
 * nothing and schedules nothing.
 *
 * One delivery never holds the others hostage (docs/decisions.md, Hardening: deliveries): when the
 * batch's statement fails, each delivery is settled by a statement of its own, and one whose own
 * statement fails too is still settled without its attempt row (its attempt counted, its lease
 * released, its next try scheduled). Only a delivery the database refuses even that is left to the
 * reaper, which counts its attempt.
 */
export async function settleDeliveries(db: Db, outcomes: Outcome[], leaseUntil: Date): Promise<WebhookDelivery[]> {
  if (outcomes.length === 0) return [];
  try {
    return await settle(db, outcomes, leaseUntil, true);
  } catch (error) {
    if (outcomes.length > 1) logger().warn({ err: error, deliveries: outcomes.length }, "webhook batch settle failed; settling each delivery on its own");
  }
  const settled: WebhookDelivery[] = [];
  for (const outcome of outcomes) {
    try {
      settled.push(...(await settle(db, [outcome], leaseUntil, true)));
      continue;
    } catch (error) {
      logger().error({ err: error, delivery_id: outcome.id }, "webhook attempt could not be recorded; settling the delivery without it");
    }
    const reason = outcome.lastAttemptFailureReason;
    const unrecorded = {
      ...outcome,
      lastAttemptFailureReason: outcome.attempt && reason ? `${WEBHOOK_MESSAGES.attemptNotRecorded}; ${reason.slice(0, 200)}` : reason,
    };
    try {
      settled.push(...(await settle(db, [unrecorded], leaseUntil, false)));
    } catch (error) {
      logger().error({ err: error, delivery_id: outcome.id }, "webhook delivery could not be settled; the reaper counts its attempt when its lease lapses");
    }
  }
  return settled;
}

async function settle(db: Db, outcomes: Outcome[], leaseUntil: Date, withAttempts: boolean): Promise<WebhookDelivery[]> {
  const deliveries = outcomes.map((o) => ({
    id: o.id,
    status: o.status,
    attempt_number: o.attemptNumber,
    last_attempted_at: o.lastAttemptedAt?.toISOString() ?? null,
    duration_ms: o.durationMs,
    last_attempt_failure_reason: storable(o.lastAttemptFailureReason),
    next_retry_at: o.nextRetryAt?.toISOString() ?? null,
    lease_until: (o.leaseUntil ?? leaseUntil).toISOString(),
  }));
  const attempts = outcomes.flatMap(({ id, attempt }) =>
    attempt && withAttempts
      ? [
          {
            delivery_id: id,
            number: attempt.number,
            started_at: attempt.startedAt.toISOString(),
            duration_ms: attempt.durationMs,
            response_status: attempt.responseStatus,
            failure_reason: storable(attempt.failureReason),
            response_body_excerpt: storable(attempt.responseBodyExcerpt),
            request_headers: Object.fromEntries(Object.entries(attempt.requestHeaders).map(([name, value]) => [name, storable(value)])),
          },
        ]
      : [],
  );
  const rows = await db.execute<Record<string, unknown>>(sql`
    with outcome as (
      select * from jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) as o(
        id text, status text, attempt_number int, last_attempted_at timestamptz, duration_ms int,
        last_attempt_failure_reason text, next_retry_at timestamptz, lease_until timestamptz)
    ), attempts as (
      insert into webhook_attempts (delivery_id, number, started_at, duration_ms, response_status, failure_reason, response_body_excerpt, request_headers)
      select a.delivery_id, a.number, a.started_at, a.duration_ms, a.response_status, a.failure_reason, a.response_body_excerpt, a.request_headers
      from jsonb_to_recordset(${JSON.stringify(attempts)}::jsonb) as a(
        delivery_id text, number int, started_at timestamptz, duration_ms int, response_status int, failure_reason text,
        response_body_excerpt text, request_headers jsonb)
      returning 1
    ), settled as (
      update webhook_deliveries d set
        status = o.status, attempt_number = o.attempt_number, last_attempted_at = o.last_attempted_at, duration_ms = o.duration_ms,
        last_attempt_failure_reason = o.last_attempt_failure_reason, next_retry_at = o.next_retry_at,
        lease_expires_at = null, updated_at = now()
      from outcome o
      where d.id = o.id and d.status = 'delivering' and d.lease_expires_at = o.lease_until
      returning d.*
    ), jobs as (${deliveryJobsFrom(sql`select id, next_retry_at as run_at from settled where next_retry_at is not null`)}
    )
    select s.*, (select count(*) from attempts) as _attempts, (select count(*) from jobs) as _jobs from settled s`);
  return rows.map(toDelivery);
}

/**
 * Records the endpoints of `claimed` not yet on record as answering whose delivery `settled` shows
 * delivered: from then on every worker process gives them their full limit of attempts in flight
 * (slow start ends; docs/decisions.md, "Delivery engine: a dispatcher per worker"). Once in an
 * endpoint's life; a non-key column, so it never waits for the foreign-key locks of transactions
 * emitting its deliveries. Never throws: should the database refuse, the endpoint stays at one
 * attempt at a time until a later delivery records it.
 */
export async function recordFirstDelivered(
  db: Db,
  claimed: readonly { endpoint: WebhookEndpoint }[],
  settled: readonly WebhookDelivery[],
  at: Date,
): Promise<void> {
  const untried = new Set(claimed.flatMap(({ endpoint }) => (endpoint.firstDeliveredAt === null ? [endpoint.id] : [])));
  if (untried.size === 0) return;
  const answered = [...new Set(settled.flatMap((d) => (d.status === "delivered" && untried.has(d.endpointId) ? [d.endpointId] : [])))].sort();
  if (answered.length === 0) return;
  try {
    await db.execute(sql`
      update webhook_endpoints set first_delivered_at = ${at.toISOString()}::timestamptz
      where id in (select jsonb_array_elements_text(${JSON.stringify(answered)}::jsonb)) and first_delivered_at is null`);
  } catch (error) {
    logger().warn({ err: error, endpoints: answered.length }, "endpoints' first delivery could not be recorded");
  }
}
