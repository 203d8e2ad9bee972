import { getConfig } from "../../server/config";
import { type Db, getDb } from "../../server/db/client";
import { type ClaimedDelivery, claimDeliveries } from "./claim";
import { resolveDestination } from "./destination-guard";
import { postJson } from "./http-post";
import { WEBHOOK_MESSAGES } from "./messages";
import { delayBeforeAttempt, MAX_ATTEMPTS, RATE_LIMIT_PER_MINUTE, RATE_LIMIT_RETRY_SECONDS } from "./schedule";
import { signingSecretsFor } from "./secrets";
import { type Outcome, settleDeliveries } from "./settle";
import { signatureHeader } from "./signing";
import { operatorHeaders } from "./static-headers";
import type { WebhookDelivery } from "./tables";

export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };

/** How long a claimed delivery belongs to its worker; a lapsed lease is recovered by the reaper. */
export const leaseSeconds = () => getConfig().webhookLeaseSeconds;

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/**
 * One attempt of each delivery among `ids` that is due (spec Webhook delivery status). Claims them
 * with a lease and counts them into their endpoints' rate windows (one statement), POSTs the
 * stored bodies with fresh signature headers side by side (the claim took only deliveries of active
 * endpoints; it parked those of suspended or disabled ones without using an attempt), then records every attempt and settles
 * every status (delivered, retrying on the schedule, failed after 25, rate_limited) and schedules
 * the next tries (one statement). Returns the settled deliveries.
 */
export async function attemptDeliveries(ids: string[], clock: Clock = systemClock): Promise<WebhookDelivery[]> {
  if (ids.length === 0) return [];
  const db = await getDb();
  const now = clock.now();
  const leaseUntil = addSeconds(now, leaseSeconds());
  const claimed = await claimDeliveries(db, ids, now, leaseUntil);
  if (claimed.length === 0) return []; // delivered, failed, not yet due, or another worker has them
  // spec: DNS is resolved (and checked) for every attempt; one lookup per host serves the batch.
  const lookups = new Map<string, ReturnType<typeof resolveDestination>>();
  const resolve = (host: string) => {
    const lookup = lookups.get(host) ?? resolveDestination(host);
    lookups.set(host, lookup);
    return lookup;
  };
  const outcomes = await Promise.all(claimed.map((item) => attempt(db, item, now, resolve)));
  return settleDeliveries(db, outcomes, leaseUntil);
}

/** One delivery, for callers (and tests) that drive a single delivery; undefined when nothing was due. */
export async function attemptDelivery(deliveryId: string, clock: Clock = systemClock): Promise<WebhookDelivery | undefined> {
  const [settled] = await attemptDeliveries([deliveryId], clock);
  return settled;
}

async function attempt(
  db: Db,
  { delivery, endpoint, event, withinRateLimit }: ClaimedDelivery,
  now: Date,
  resolve: typeof resolveDestination,
): Promise<Outcome> {
  const unchanged = {
    id: delivery.id,
    attemptNumber: delivery.attemptNumber,
    lastAttemptedAt: delivery.lastAttemptedAt,
    durationMs: delivery.durationMs,
  };
  if (!withinRateLimit) {
    // spec: excess is rate_limited and retried in 60 seconds without using an attempt.
    return {
      ...unchanged,
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
  };
  const result = await postJson(endpoint.destinationUrl, headers, event.body, resolve);
  const number = delivery.attemptNumber + 1;
  const status = result.failure === null ? "delivered" : number >= MAX_ATTEMPTS ? "failed" : "retrying";
  return {
    id: delivery.id,
    status,
    attemptNumber: number,
    lastAttemptedAt: now,
    durationMs: result.durationMs,
    lastAttemptFailureReason: result.failure,
    nextRetryAt: status === "retrying" ? addSeconds(now, delayBeforeAttempt(number + 1)) : null,
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
