/** spec Ordering and retries: at most 25 attempts; after attempt 25 fails the delivery is `failed`. */
export const MAX_ATTEMPTS = 25;
/** spec: 2^attempt seconds, capped at one hour. */
export const MAX_DELAY_SECONDS = 3600;
/** spec: 1000 deliveries per minute per endpoint; the excess is retried after 60 s without using an attempt. */
export const RATE_LIMIT_PER_MINUTE = 1000;
export const RATE_LIMIT_RETRY_SECONDS = 60;
/** spec Delivery mechanics 4: connect and read within 10 seconds (the DNS lookup included: docs/decisions.md, Hardening: deliveries). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Seconds to wait before attempt `next` (2 or more): 4 s before the second attempt, then doubling to the hour. */
export function delayBeforeAttempt(next: number): number {
  return Math.min(2 ** next, MAX_DELAY_SECONDS);
}

/**
 * Seconds a receiver asked to wait with `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an
 * HTTP-date), counted from `now`; null when the value is neither. A date already past asks for 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text);
  // HTTP-date: IMF-fixdate, or the obsolete RFC 850 and asctime forms; all name a weekday and a year.
  if (!/^[A-Za-z]{3,9},? /.test(text) || !/\d{2}:\d{2}:\d{2}/.test(text)) return null;
  // asctime carries no zone; HTTP dates are always GMT.
  const at = Date.parse(text.endsWith(" GMT") ? text : /\d{4}$/.test(text) ? `${text} GMT` : "");
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * Seconds before attempt `next`: the schedule's, or longer when the receiver answered 429 or 503 with
 * `Retry-After`, never past the schedule's one-hour cap (shared decisions §15).
 */
export function delayBeforeRetry(next: number, retryAfterSeconds: number | null): number {
  return Math.max(delayBeforeAttempt(next), Math.min(retryAfterSeconds ?? 0, MAX_DELAY_SECONDS));
}
