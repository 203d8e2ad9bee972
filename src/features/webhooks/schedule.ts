/** spec Ordering and retries: at most 25 attempts; after attempt 25 fails the delivery is `failed`. */
export const MAX_ATTEMPTS = 25;
/** spec: 2^attempt seconds, capped at one hour. */
export const MAX_DELAY_SECONDS = 3600;
/** spec: 1000 deliveries per minute per endpoint; the excess is retried after 60 s without using an attempt. */
export const RATE_LIMIT_PER_MINUTE = 1000;
export const RATE_LIMIT_RETRY_SECONDS = 60;
/** spec Delivery mechanics 4: connect and read within 10 seconds. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Seconds to wait before attempt `next` (2 or more): 4 s before the second attempt, then doubling to the hour. */
export function delayBeforeAttempt(next: number): number {
  return Math.min(2 ** next, MAX_DELAY_SECONDS);
}
