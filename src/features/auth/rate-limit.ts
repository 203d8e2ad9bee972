import { sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import type { RateLimitState } from "../../server/trpc/context";
import { rateBuckets } from "./rate-buckets.table";

/**
 * Request limits counted across every web process (decisions §17 "The Partner API is fair too";
 * docs/decisions.md, "Partner developer: rate limits"). The bucket of a key lives in PostgreSQL
 * (`rate_buckets`), the only store the processes share; each process leases tokens from it in small
 * chunks and spends them locally, so most requests cost no round trip. A leased token is taken from
 * the shared bucket before it is spent: the processes together never admit more than the shared
 * bucket gives out, plus the tokens they hold unspent at one moment (the prefetch below), which is
 * what bounds the error.
 */

export type RatePolicy = { perSecond: number; burst: number };

/** A policy of `perSecond` with bursts up to twice that (decisions §17); `0` turns the limit off. */
export function policyOf(perSecond: number): RatePolicy | undefined {
  return perSecond > 0 ? { perSecond, burst: 2 * perSecond } : undefined;
}

/**
 * A process keeps, beyond what its waiting requests need, the tokens of its next 100 ms at the
 * rate it has been spending them, never more than 5 % of the burst (none below 10 requests a
 * second: each of those requests leases its own token). Tokens held unspent by all processes
 * together are thus about a tenth of a second of the client's admitted rate (at most 10 at the
 * default 100/s: 5 % of the burst), whatever the number of processes: the error stays within 10 %.
 */
const PREFETCH_SECONDS = 0.1;
const PREFETCH_SHARE_OF_BURST = 0.05;
/** A key unused this long is forgotten by the process (its few unspent tokens with it). */
const IDLE_MS = 60_000;

/** A request's outcome: admitted, or refused with the seconds to wait; the headers either way. */
export type RateDecision = { admitted: boolean; state: RateLimitState; retryAfterSeconds: number };

type Waiter = { resolve: (decision: RateDecision) => void; reject: (error: unknown) => void };

type LocalBucket = {
  spare: number;
  /** The shared bucket's tokens after the last lease, and when (for `RateLimit-Remaining`). */
  shared: number;
  sharedAt: number;
  /** Tokens spent since `rateSince`: the rate that sizes the prefetch. */
  spent: number;
  rateSince: number;
  leasing: boolean;
  /** The last lease found the shared bucket short: no whole token anywhere before this time (ms). */
  emptyUntil: number;
  waiting: Waiter[];
  usedAt: number;
};

export type RateLimiter = {
  /** Takes one token of `key` if there is one; a database failure rejects. */
  take(db: Db, key: string, policy: RatePolicy): Promise<RateDecision>;
};

/** One limiter per process (a test makes two to stand for two processes). */
export function createRateLimiter(): RateLimiter {
  const buckets = new Map<string, LocalBucket>();
  let sweptAt = Date.now();

  function sweep(now: number): void {
    if (now - sweptAt < IDLE_MS) return;
    sweptAt = now;
    for (const [key, bucket] of buckets) if (now - bucket.usedAt > IDLE_MS && !bucket.leasing) buckets.delete(key);
  }

  function allowance(bucket: LocalBucket, policy: RatePolicy, now: number): RateLimitState {
    const shared = Math.min(policy.burst, bucket.shared + ((now - bucket.sharedAt) / 1000) * policy.perSecond);
    const remaining = Math.max(0, Math.min(policy.burst, Math.floor(shared + bucket.spare)));
    return { limit: policy.burst, remaining, resetSeconds: Math.ceil((policy.burst - remaining) / policy.perSecond) };
  }

  function spend(bucket: LocalBucket, policy: RatePolicy, now: number): RateDecision {
    bucket.spare -= 1;
    bucket.spent += 1;
    return { admitted: true, state: allowance(bucket, policy, now), retryAfterSeconds: 0 };
  }

  function prefetchOf(bucket: LocalBucket, policy: RatePolicy, now: number): number {
    const seconds = Math.max(0.001, (now - bucket.rateSince) / 1000);
    const rate = bucket.spent / seconds;
    bucket.spent = 0;
    bucket.rateSince = now;
    return Math.min(Math.floor(rate * PREFETCH_SECONDS), Math.floor(policy.burst * PREFETCH_SHARE_OF_BURST));
  }

  async function lease(db: Db, key: string, bucket: LocalBucket, policy: RatePolicy): Promise<void> {
    bucket.leasing = true;
    const batch = bucket.waiting;
    bucket.waiting = [];
    try {
      const want = Math.min(policy.burst, batch.length + prefetchOf(bucket, policy, Date.now()));
      const { granted, tokens } = await leaseTokens(db, key, policy, want);
      const now = Date.now();
      bucket.spare += granted;
      bucket.shared = tokens;
      bucket.sharedAt = now;
      bucket.emptyUntil = tokens < 1 ? now + ((1 - tokens) / policy.perSecond) * 1000 : 0;
      for (const waiter of batch) {
        if (bucket.spare >= 1) waiter.resolve(spend(bucket, policy, now));
        // The shared bucket had fewer tokens than this batch asked for: the rest are refused now,
        // as one bucket would refuse them, rather than leasing again for each.
        else waiter.resolve(refusal(bucket, policy, now));
      }
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    } finally {
      bucket.leasing = false;
    }
    // Requests that came during the lease: the spare serves them, else the next lease.
    const now = Date.now();
    while (bucket.waiting.length > 0 && bucket.spare >= 1) bucket.waiting.shift()?.resolve(spend(bucket, policy, now));
    if (bucket.waiting.length > 0) void lease(db, key, bucket, policy);
  }

  /** The shared bucket is empty: the next whole token is there in (1 − tokens) / rate seconds. */
  function refusal(bucket: LocalBucket, policy: RatePolicy, now: number): RateDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil((bucket.emptyUntil - now) / 1000));
    return { admitted: false, state: allowance(bucket, policy, now), retryAfterSeconds };
  }

  return {
    take(db, key, policy) {
      const now = Date.now();
      sweep(now);
      // Per policy too: a limit changed while the process runs starts from what the shared bucket holds.
      const localKey = `${key} ${policy.perSecond}`;
      let bucket = buckets.get(localKey);
      if (!bucket) {
        bucket = { spare: 0, shared: policy.burst, sharedAt: now, spent: 0, rateSince: now, leasing: false, emptyUntil: 0, waiting: [], usedAt: now };
        buckets.set(localKey, bucket);
      }
      bucket.usedAt = now;
      if (bucket.spare >= 1 && bucket.waiting.length === 0) return Promise.resolve(spend(bucket, policy, now));
      // The shared bucket refills at a known rate: until its next whole token, every process would be
      // refused, so this one refuses without asking (a client hammering past its limit costs no round trips).
      if (bucket.spare < 1 && !bucket.leasing && now < bucket.emptyUntil) return Promise.resolve(refusal(bucket, policy, now));
      const local = bucket;
      return new Promise((resolve, reject) => {
        local.waiting.push({ resolve, reject });
        if (!local.leasing) void lease(db, key, local, policy);
      });
    },
  };
}

/**
 * Takes up to `want` tokens from the shared bucket of `key` in one statement: the bucket is refilled
 * for the time since its last lease (at most to the burst), then gives what it has, whole tokens
 * only. A new key starts full. The row lock orders leases of several processes.
 */
async function leaseTokens(db: Db, key: string, policy: RatePolicy, want: number): Promise<{ granted: number; tokens: number }> {
  const { perSecond: rate, burst } = policy;
  const refilled = sql`least(${burst}::float8, ${rateBuckets.tokens} + greatest(0, extract(epoch from now() - ${rateBuckets.refilledAt}))::float8 * ${rate}::float8)`;
  const granted = sql`least(${want}::float8, floor(${refilled}))`;
  const [row] = (await db.execute(sql`
    insert into ${rateBuckets} (key, tokens, refilled_at, granted)
    values (${key}, ${burst}::float8 - ${want}::float8, now(), ${want}::float8)
    on conflict (key) do update set
      granted = ${granted},
      tokens = ${refilled} - ${granted},
      refilled_at = greatest(${rateBuckets.refilledAt}, now())
    returning granted, tokens`)) as unknown as Array<{ granted: number; tokens: number }>;
  return { granted: Number(row.granted), tokens: Number(row.tokens) };
}
