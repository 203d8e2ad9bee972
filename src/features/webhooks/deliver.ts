import { getConfig } from "../../server/config";
import { type Db, getDb } from "../../server/db/client";
import { logger } from "../../server/log";
import { observeWebhookAttempts } from "../../server/observability/metrics";
import { inAttemptSpan, tracingOn } from "../../server/observability/tracing";
import { type ClaimedDelivery, claimDeliveries } from "./claim";
import { beforeDeadline, resolveDestination } from "./destination-guard";
import { LEASE_FAILURE, type PostResult, postJson, type Resolve } from "./http-post";
import { WEBHOOK_MESSAGES } from "./messages";
import { delayBeforeRetry, MAX_ATTEMPTS, RATE_LIMIT_PER_MINUTE, RATE_LIMIT_RETRY_SECONDS, REQUEST_TIMEOUT_MS } from "./schedule";
import { signingSecretsFor } from "./secrets";
import { type Outcome, recordFirstDelivered, settleDeliveries } from "./settle";
import { signatureHeader } from "./signing";
import { operatorHeaders } from "./static-headers";
import { TEST_HEADER } from "./test-events";
import type { WebhookDelivery } from "./webhooks.table";

export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };

/** How long a claimed delivery belongs to its worker; a lapsed lease is recovered by the reaper. */
export const leaseSeconds = () => getConfig().webhookLeaseSeconds;

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/**
 * Share of the lease a batch may spend before it settles (docs/decisions.md, Hardening: deliveries):
 * counted from before the claim, whatever is still unanswered then is settled as a timeout, leaving
 * the rest of the lease to record it. With the default 30 s lease: 20 s, twice the 10 s attempt budget.
 */
export const BATCH_SHARE_OF_LEASE = 2 / 3;

/**
 * One attempt of each delivery among `ids` that is due (spec Webhook delivery status). Claims them
 * with a lease and counts them into their endpoints' rate windows (one statement), POSTs the
 * stored bodies with fresh signature headers side by side (the claim took only deliveries of active
 * endpoints; it parked those of suspended or disabled ones without using an attempt), then records every attempt and settles
 * every status (delivered, retrying on the schedule, failed after 25, rate_limited) and schedules
 * the next tries (`settleDeliveries`, which settles each delivery on its own when the batch's
 * statement fails). No batch outlives its lease: at `BATCH_SHARE_OF_LEASE` every unanswered
 * attempt ends as a timeout. Returns the settled deliveries.
 */
export async function attemptDeliveries(ids: string[], clock: Clock = systemClock): Promise<WebhookDelivery[]> {
  if (ids.length === 0) return [];
  const started = performance.now();
  const db = await getDb();
  const now = clock.now();
  const lease = leaseSeconds();
  const leaseUntil = addSeconds(now, lease);
  const claimed = await claimDeliveries(db, ids, now, leaseUntil);
  if (claimed.length === 0) return []; // delivered, failed, not yet due, or another worker has them
  const deadline = leaseDeadline(lease, started);
  const resolve = batchResolver(deadline);
  const outcomes = await Promise.all(claimed.map((item) => attemptClaimed(db, item, now, resolve, deadline)));
  const settled = await settleDeliveries(db, outcomes, leaseUntil);
  await recordFirstDelivered(db, claimed, settled, now);
  // A delivery is recorded in its event's transaction: its creation is the event's.
  observeWebhookAttempts(
    outcomes.flatMap((outcome, i) => (outcome.attempt ? [{ ...outcome.attempt, eventCreatedAt: claimed[i].delivery.createdAt }] : [])),
    settled.map((delivery) => delivery.status),
  );
  return settled;
}

/** The deadline of a claim's attempts: `BATCH_SHARE_OF_LEASE` of the lease, counted from `started` (before the claim). */
export function leaseDeadline(lease: number, started: number): AbortSignal {
  return AbortSignal.timeout(Math.max(0, Math.floor(lease * 1000 * BATCH_SHARE_OF_LEASE - (performance.now() - started))));
}

/**
 * spec: DNS is resolved (and checked) for every attempt; one lookup per host serves the deliveries
 * of one claim, under the attempt's own 10 s budget and the claim's deadline.
 */
export function batchResolver(deadline: AbortSignal): Resolve {
  const lookups = new Map<string, ReturnType<Resolve>>();
  return (host, signal) => {
    const lookup = lookups.get(host) ?? resolveDestination(host, AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), deadline]));
    lookups.set(host, lookup);
    return beforeDeadline(lookup, signal);
  };
}

/** One delivery, for callers (and tests) that drive a single delivery; undefined when nothing was due. */
export async function attemptDelivery(deliveryId: string, clock: Clock = systemClock): Promise<WebhookDelivery | undefined> {
  const [settled] = await attemptDeliveries([deliveryId], clock);
  return settled;
}

/**
 * An attempt always ends in an outcome by the batch's deadline: a failure before the POST (a
 * secret that cannot be read, the database gone) or the deadline counts the attempt too, so a
 * delivery that cannot be sent reaches `failed` after 25 attempts instead of looping.
 */
export async function attemptClaimed(db: Db, item: ClaimedDelivery, now: Date, resolve: Resolve, deadline: AbortSignal): Promise<Outcome> {
  const started = performance.now();
  try {
    return await beforeDeadline(attempt(db, item, now, resolve, deadline), deadline);
  } catch (error) {
    if (!deadline.aborted) logger().error({ err: error, delivery_id: item.delivery.id }, "webhook attempt failed before sending");
    const failure = deadline.aborted ? LEASE_FAILURE : WEBHOOK_MESSAGES.attemptNotSent;
    return counted(
      item.delivery,
      now,
      { status: null, bodyExcerpt: null, failure, durationMs: Math.round(performance.now() - started), retryAfterSeconds: null },
      {},
    );
  }
}

async function attempt(
  db: Db,
  { delivery, endpoint, event, withinRateLimit }: ClaimedDelivery,
  now: Date,
  resolve: Resolve,
  deadline: AbortSignal,
): Promise<Outcome> {
  if (!withinRateLimit) {
    // spec: excess is rate_limited and retried in 60 seconds without using an attempt.
    return {
      id: delivery.id,
      attemptNumber: delivery.attemptNumber,
      lastAttemptedAt: delivery.lastAttemptedAt,
      durationMs: delivery.durationMs,
      status: "rate_limited",
      nextRetryAt: addSeconds(now, RATE_LIMIT_RETRY_SECONDS),
      lastAttemptFailureReason: WEBHOOK_MESSAGES.rateLimited(RATE_LIMIT_PER_MINUTE),
    };
  }
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    ...operatorHeaders(endpoint),
    "Content-Type": "application/json",
    "X-Webhook-Event": event.event,
    "X-Webhook-Delivery": delivery.id,
    "X-Webhook-Timestamp": String(timestamp),
    "X-Webhook-Signature": signatureHeader(await signingSecretsFor(db, endpoint, now), timestamp, event.body),
    // docs/decisions.md, "Partner developer: test events": on every attempt of a test event, retries included.
    ...(delivery.test ? { [TEST_HEADER]: "true" } : {}),
  };
  const post = () => postJson(endpoint.destinationUrl, headers, event.body, { resolve, deadline });
  // Traces on: a span per POST, a child of the delivery job's (docs/decisions.md, Traces).
  return counted(delivery, now, await (tracingOn() ? inAttemptSpan(endpoint.destinationUrl, post) : post()), headers);
}

/** The outcome of an attempt that counts: delivered on a 2xx, else retrying on the schedule (or as the receiver asked), failed after 25. */
function counted(delivery: WebhookDelivery, now: Date, result: PostResult, headers: Record<string, string>): Outcome {
  const number = delivery.attemptNumber + 1;
  const status = result.failure === null ? "delivered" : number >= MAX_ATTEMPTS ? "failed" : "retrying";
  // Retry-After counts from the answer; the schedule from the attempt's start.
  const retryAfter = result.retryAfterSeconds === null ? null : result.retryAfterSeconds + Math.ceil(result.durationMs / 1000);
  return {
    id: delivery.id,
    status,
    attemptNumber: number,
    lastAttemptedAt: now,
    durationMs: result.durationMs,
    lastAttemptFailureReason: result.failure,
    nextRetryAt: status === "retrying" ? addSeconds(now, delayBeforeRetry(number + 1, retryAfter)) : null,
    attempt: {
      number,
      startedAt: now,
      durationMs: result.durationMs,
      responseStatus: result.status,
      failureReason: result.failure,
      responseBodyExcerpt: result.bodyExcerpt,
      requestHeaders: headers,
    },
  };
}
