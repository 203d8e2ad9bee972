import { AsyncResource } from "node:async_hooks";
import { setMaxListeners } from "node:events";
import { getConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { restartDelayMs } from "../../server/jobs/worker";
import { logger } from "../../server/log";
import { observeAttemptsInFlight, observeAttemptWaits, observeEndpointsPaced, observeWebhookAttempts } from "../../server/observability/metrics";
import { tracingOn } from "../../server/observability/tracing";
import { type ClaimedDelivery, claimDueDeliveries, endpointsBeyondTheirWindow, type WindowLeft } from "./claim";
import { attemptClaimed, batchResolver, leaseDeadline, leaseSeconds } from "./deliver";
import { LEASE_FAILURE } from "./http-post";
import { Pacer, pause, WindowPace } from "./pacer";
import { RATE_LIMIT_PER_MINUTE } from "./schedule";
import { type Outcome, recordFirstDelivered, settleDeliveries } from "./settle";

export type DispatcherOptions = {
  /** Attempts held at once (WEBHOOK_MAX_IN_FLIGHT). */
  maxInFlight: number;
  /** Attempts of one endpoint held at once (WEBHOOK_ENDPOINT_MAX_IN_FLIGHT). */
  endpointMaxInFlight: number;
  /** The backstop: an idle dispatcher claims at least this often, whatever woke it or not. */
  pollMs?: number;
};

/** Settled outcomes wait this long for company before their batch's statement (unless the batch is full). */
const SETTLE_DELAY_MS = 2;
const SETTLE_BATCH = 500;
const DEFAULT_POLL_MS = 1_000;
/** Trace contexts of woken deliveries kept for their attempt (traces on only); older ones are dropped. */
const MAX_TRACE_CONTEXTS = 10_000;
/** Endpoints remembered as unanswering (beyond it, a new one keeps its full limit until one is heard from). */
const MAX_UNANSWERING = 100_000;
/** Endpoints remembered as resting at their rate limit (beyond it, a new one is claimed as before: its excess settled `rate_limited`). */
const MAX_RESTING = 100_000;
/** The rate window (spec: 1000 deliveries per minute per endpoint, a window of one minute). */
const RATE_WINDOW_MS = 60_000;
/** Endpoints remembered as looked at (beyond it, those whose window has ended are forgotten). */
const MAX_LOOKED = 10_000;
/** An endpoint still claimed in its window has its backlog looked at again after this long (a recovery requested mid-window). */
const LOOK_AGAIN_MS = 1_000;
/** A paced endpoint's next allowed start wakes the dispatcher no sooner than this: its starts go a few per claim. */
const PACE_WAKE_MS = 200;
/**
 * Attempts to receivers not known to answer (never answered a 2xx, or silent at their last attempt
 * here) start at most this many a second, this many at once: each opens a new TLS connection (about
 * a millisecond of this process's CPU, and the receiver's), and a hundred at once would stall the
 * event loop the other endpoints' attempts share.
 */
const UNTRIED_STARTS_PER_SECOND = 100;
const UNTRIED_STARTS_BURST = 10;

type Held = { item: ClaimedDelivery; leaseUntil: Date };

/**
 * The delivery engine of one worker process (docs/decisions.md, "Delivery engine: a dispatcher per
 * worker"; shared decisions §17). An attempt waiting on a receiver holds a socket and one of
 * `maxInFlight` slots, nothing else: no job slot, no database connection, no batch of other
 * endpoints' deliveries. The loop claims due deliveries fairly across endpoints (at most
 * `endpointMaxInFlight` of one endpoint held at once, one while it has never answered a 2xx:
 * `claimDueDeliveries`), starts each attempt as a plain promise (those to receivers not known to answer
 * paced, each opening a TLS connection), and settles finished attempts in batches, each delivery fenced by its own lease,
 * so one endpoint's slow answer never delays another's settle. It is woken by the delivery jobs the
 * statements writing deliveries add in their transaction (`webhook_delivery__attempt`), by freed
 * slots, and by a poll as the backstop; a claim the database refuses is tried again after the worker's
 * capped backoff, so the dispatcher outlives a database restart.
 */
export class Dispatcher {
  private stopping = false;
  /** Attempts on the wire: claimed, their POST not finished. */
  private held = 0;
  /** Attempts finished and not yet settled (waiting for, or in, a settle statement). */
  private unsettled = 0;
  private readonly perEndpoint = new Map<string, number>();
  /** Endpoints whose last attempt here got no answer (a timeout, a refused or dropped connection): one attempt at a time. */
  private readonly unanswering = new Set<string>();
  /**
   * Endpoints whose rate window is full, until it ends (ms since the epoch): their due deliveries wait,
   * unclaimed, instead of being claimed over and over only to be settled `rate_limited`.
   */
  private readonly resting = new Map<string, number>();
  /**
   * Endpoints with more deliveries due before their rate window ends than the window still allows:
   * the rest of the window's allowance spread across it (`WindowPace`), until the window ends.
   */
  private readonly paced = new Map<string, WindowPace>();
  /** When an endpoint's backlog was last looked at, and its window's start then (ms since the epoch). */
  private readonly looked = new Map<string, { windowStart: number; at: number }>();
  /** Paced endpoints that used all their allowance at their last claim: more of theirs may be due. */
  private readonly wantingPace = new Set<string>();
  private paceTimer: NodeJS.Timeout | undefined;
  private readonly toSettle: { outcome: Outcome; held: Held }[] = [];
  private settling: Promise<void> | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private wanted = true;
  private resume: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly stopAttempts = new AbortController();
  private readonly traces = new Map<string, <T>(run: () => T) => T>();
  private idle: (() => void) | undefined;
  private readonly pollMs: number;
  private readonly untriedStarts = new Pacer(UNTRIED_STARTS_PER_SECOND, UNTRIED_STARTS_BURST);

  constructor(private readonly options: DispatcherOptions) {
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    setMaxListeners(0, this.stopAttempts.signal);
  }

  start(): void {
    this.loop ??= this.run().catch((error: unknown) => logger().error({ err: error }, "webhook dispatcher stopped"));
  }

  /** Attempts on the wire now (claimed, their POST not finished): what `pis_webhook_attempts_in_flight` shows. */
  get inFlight(): number {
    return this.held;
  }

  /**
   * Due deliveries may be waiting: claim soon. `deliveryIds` (a delivery job's) carry the job's trace
   * context to their attempts when traces are on (docs/decisions.md, Traces).
   */
  wake(deliveryIds: readonly string[] = []): void {
    if (this.stopping) return;
    if (deliveryIds.length && tracingOn()) {
      // The caller's async context (the job's span), entered again around the attempt.
      const inContext = AsyncResource.bind(<T>(run: () => T) => run());
      for (const id of deliveryIds) this.traces.set(id, inContext);
      for (const id of this.traces.keys()) {
        if (this.traces.size <= MAX_TRACE_CONTEXTS) break;
        this.traces.delete(id);
      }
    }
    this.wanted = true;
    this.resume?.();
  }

  /**
   * Stops claiming; the attempts in flight finish within `budgetMs` and are settled. Those still
   * unanswered then are handed back: their delivery waits again, due now, its attempt not counted.
   */
  async stop(budgetMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.paceTimer);
    observeEndpointsPaced(-this.paced.size);
    this.paced.clear();
    this.resume?.();
    await this.loop;
    if (!(await this.drained(Math.max(0, budgetMs - 1_000)))) {
      logger().warn({ attempts: this.held, unsettled: this.unsettled }, "webhook attempts still in flight at the shutdown timeout: handed back");
      this.stopAttempts.abort();
      await this.drained(5_000);
    }
  }

  private drained(ms: number): Promise<boolean> {
    if (this.held + this.unsettled === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idle = undefined;
        resolve(false);
      }, ms);
      this.idle = () => {
        clearTimeout(timer);
        this.idle = undefined;
        resolve(true);
      };
    });
  }

  private async run(): Promise<void> {
    const { maxInFlight } = this.options;
    // Slots freed one at a time are claimed together: a claim per few settled attempts, not per one.
    // Below the reserve kept for idle endpoints (`reserveOf`), so a nearly full process still claims for them.
    const claimAtLeast = Math.max(1, Math.min(25, Math.floor(maxInFlight / 20)));
    let failures = 0;
    while (!this.stopping) {
      // A finished attempt frees its slot at once, its settle overlapping the next claim; when settles
      // fall behind (as many unsettled as slots), claiming waits for them.
      const free = this.unsettled >= maxInFlight ? 0 : maxInFlight - this.held;
      if (!this.wanted || free <= 0 || (free < claimAtLeast && this.held > 0)) {
        await this.pause(this.wanted ? undefined : this.pollMs);
        if (!this.wanted && free > 0) this.wanted = true; // the poll: look again
        continue;
      }
      this.wanted = false;
      try {
        const claimed = await this.claim(free);
        failures = 0;
        // More may be due: look again as soon as slots allow (a claim finding nothing ends that).
        if (claimed > 0) this.wanted = true;
      } catch (error) {
        failures++;
        this.wanted = true;
        const nextInMs = restartDelayMs(failures);
        logger().warn({ err: error, failures, nextInMs }, "webhook claim failed: trying again");
        await this.pause(nextInMs, true);
      }
    }
  }

  /** Waits for a wake (or a freed slot), or `ms`; `fixed`: only `ms` (a backoff), or a stop. */
  private pause(ms: number | undefined, fixed = false): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      const self = this;
      function done() {
        if (timer) clearTimeout(timer);
        self.resume = undefined;
        resolve();
      }
      this.resume = fixed ? () => this.stopping && done() : done;
    });
  }

  private async claim(free: number): Promise<number> {
    const started = performance.now();
    const db = await getDb();
    const now = new Date();
    const lease = leaseSeconds();
    const leaseUntil = new Date(now.getTime() + lease * 1000);
    const allowed = this.pacedNow(now.getTime());
    const slots = claimSlots(this.options, free, this.perEndpoint, this.unanswering, this.restingNow(now.getTime()), allowed);
    const claimed = await claimDueDeliveries(db, slots, now, leaseUntil);
    const taken = new Map<string, number>();
    for (const { endpoint } of claimed) taken.set(endpoint.id, (taken.get(endpoint.id) ?? 0) + 1);
    for (const [id, starts] of allowed) {
      this.paced.get(id)?.take(taken.get(id) ?? 0);
      // Allowance left unused: nothing more of it was due (or its slots were full, and a finished attempt wakes us).
      if ((taken.get(id) ?? 0) < starts) this.wantingPace.delete(id);
      else this.wantingPace.add(id);
    }
    // The window's count, this claim's included: every process's starts, so processes pacing one endpoint share its pace.
    for (const { endpoint, windowCount } of claimed) if (windowCount !== null) this.paced.get(endpoint.id)?.observe(windowCount);
    this.wakeForPaced();
    if (claimed.length === 0) return 0;
    for (const { endpoint, withinRateLimit, windowStartedAt } of claimed) {
      if (withinRateLimit || !windowStartedAt || this.resting.size >= MAX_RESTING) continue;
      this.resting.set(endpoint.id, windowStartedAt.getTime() + RATE_WINDOW_MS);
    }
    this.lookAtBacklogs(claimed);
    this.held += claimed.length;
    observeAttemptsInFlight(claimed.length);
    observeAttemptWaits(claimed.map(({ delivery }) => (now.getTime() - (delivery.nextRetryAt ?? delivery.createdAt).getTime()) / 1000));
    const deadline = AbortSignal.any([leaseDeadline(lease, started), this.stopAttempts.signal]);
    // Every attempt of the claim listens to it (hundreds): not a leak.
    setMaxListeners(0, deadline);
    const resolve = batchResolver(deadline);
    for (const item of claimed) {
      this.perEndpoint.set(item.endpoint.id, (this.perEndpoint.get(item.endpoint.id) ?? 0) + 1);
      const held = { item, leaseUntil };
      const inContext = this.traces.get(item.delivery.id);
      this.traces.delete(item.delivery.id);
      const attempt = () => attemptClaimed(db, item, now, resolve, deadline);
      const run = () => (inContext ? inContext(attempt) : attempt());
      const untried = item.endpoint.firstDeliveredAt === null || this.unanswering.has(item.endpoint.id);
      const wait = untried ? this.untriedStarts.delayMs() : 0;
      (wait > 0 ? pause(wait, deadline).then(run) : run()).then(
        (outcome) => this.finished(held, outcome),
        // attemptClaimed never throws; should it, the lease lapses and the reaper counts the attempt.
        (error: unknown) => {
          logger().error({ err: error, delivery_id: item.delivery.id }, "webhook attempt failed");
          this.offTheWire(held);
          this.wake();
          if (this.held + this.unsettled === 0) this.idle?.();
        },
      );
    }
    return claimed.length;
  }

  private finished(held: Held, outcome: Outcome): void {
    this.offTheWire(held);
    this.unsettled++;
    const handedBack = this.stopAttempts.signal.aborted && outcome.attempt?.failureReason?.startsWith(LEASE_FAILURE) === true;
    if (outcome.attempt && !handedBack) this.heard(held.item.endpoint.id, outcome.attempt.responseStatus !== null);
    this.toSettle.push({ outcome: { ...(handedBack ? handBack(held.item) : outcome), leaseUntil: held.leaseUntil }, held });
    if (this.toSettle.length >= SETTLE_BATCH) this.settleSoon(0);
    else this.settleSoon(SETTLE_DELAY_MS);
    // The freed slot may take a waiting delivery (of a capped endpoint too).
    this.wake();
  }

  /** The endpoints still resting at their rate limit at `at` (those whose window ended are forgotten). */
  private restingNow(at: number): Set<string> {
    const now = new Set<string>();
    for (const [id, until] of this.resting) {
      if (until > at) now.add(id);
      else this.resting.delete(id);
    }
    return now;
  }

  /** The paced endpoints' starts allowed at `at`, by endpoint (those whose window ended are forgotten). */
  private pacedNow(at: number): Map<string, number> {
    const allowed = new Map<string, number>();
    for (const [id, pace] of this.paced) {
      if (pace.until > at) allowed.set(id, pace.allowed(at));
      else {
        this.paced.delete(id);
        this.wantingPace.delete(id);
        observeEndpointsPaced(-1);
      }
    }
    return allowed;
  }

  /** A wake for the next allowed start of the paced endpoints still wanting one (one timer, at the earliest of them). */
  private wakeForPaced(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const id of this.wantingPace) next = Math.min(next, this.paced.get(id)?.nextAt() ?? next);
    clearTimeout(this.paceTimer);
    if (this.stopping || next === Number.POSITIVE_INFINITY) return;
    this.paceTimer = setTimeout(() => this.wake(), Math.max(PACE_WAKE_MS, next - Date.now()));
  }

  /**
   * Looks at whether a claimed endpoint not paced has more due before its rate window ends than the
   * window still allows (at its first claim of a window, and again every `LOOK_AGAIN_MS` while it is
   * claimed); those are paced until the window ends. In the background: the claim's attempts do not
   * wait for it, and a failure only leaves the endpoint unpaced (its window still bounds it).
   */
  private lookAtBacklogs(claimed: readonly ClaimedDelivery[]): void {
    const now = Date.now();
    const windows = new Map<string, WindowLeft>();
    for (const { endpoint, windowStartedAt, windowCount } of claimed) {
      if (!windowStartedAt || windowCount === null || this.paced.has(endpoint.id)) continue;
      const windowStart = windowStartedAt.getTime();
      const last = this.looked.get(endpoint.id);
      if (last && last.windowStart === windowStart && now - last.at < LOOK_AGAIN_MS) continue;
      // Every row of one endpoint carries the same window count (the claim's total): the first one says it.
      if (!windows.has(endpoint.id))
        windows.set(endpoint.id, {
          endpointId: endpoint.id,
          remaining: RATE_LIMIT_PER_MINUTE - windowCount,
          windowEnd: new Date(windowStart + RATE_WINDOW_MS),
        });
    }
    for (const [id, { windowEnd }] of windows) this.looked.set(id, { windowStart: windowEnd.getTime() - RATE_WINDOW_MS, at: now });
    if (this.looked.size > MAX_LOOKED) {
      for (const [id, { windowStart }] of this.looked) if (windowStart + RATE_WINDOW_MS <= now) this.looked.delete(id);
    }
    // A full window rests instead (`resting`).
    const open = [...windows.values()].filter((window) => window.remaining > 0);
    if (open.length === 0) return;
    getDb()
      .then((db) => endpointsBeyondTheirWindow(db, open))
      .then((beyond) => {
        const at = Date.now();
        for (const window of open) {
          if (this.stopping || !beyond.has(window.endpointId) || window.windowEnd.getTime() <= at) continue;
          if (!this.paced.has(window.endpointId)) observeEndpointsPaced(1);
          this.paced.set(window.endpointId, new WindowPace(at, window.windowEnd.getTime(), RATE_LIMIT_PER_MINUTE - window.remaining, RATE_LIMIT_PER_MINUTE));
          this.wantingPace.add(window.endpointId);
        }
        this.wakeForPaced();
      })
      .catch((error: unknown) => logger().debug({ err: error }, "webhook backlog not looked at"));
  }

  /** Records whether an endpoint answered its last attempt (any HTTP status is an answer). */
  private heard(endpointId: string, answered: boolean): void {
    if (answered) this.unanswering.delete(endpointId);
    else if (this.unanswering.size < MAX_UNANSWERING) this.unanswering.add(endpointId);
  }

  /** One settle statement at a time; outcomes finishing meanwhile form the next batch. */
  private settleSoon(delayMs: number): void {
    if (this.settling) return;
    if (this.settleTimer && delayMs > 0) return;
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.settling = this.settleAll().finally(() => {
        this.settling = undefined;
        if (this.toSettle.length) this.settleSoon(this.toSettle.length >= SETTLE_BATCH ? 0 : SETTLE_DELAY_MS);
      });
    }, delayMs);
  }

  private async settleAll(): Promise<void> {
    const batch = this.toSettle.splice(0, SETTLE_BATCH);
    if (batch.length === 0) return;
    try {
      const db = await getDb();
      // Per delivery on a batch failure (settleDeliveries); never throws for a delivery's sake.
      const settled = await settleDeliveries(
        db,
        batch.map(({ outcome }) => outcome),
        batch[0].held.leaseUntil,
      );
      await recordFirstDelivered(
        db,
        batch.map(({ held }) => held.item),
        settled,
        new Date(),
      );
      const created = new Map(batch.map(({ held }) => [held.item.delivery.id, held.item.delivery.createdAt]));
      observeWebhookAttempts(
        batch.flatMap(({ outcome }) => (outcome.attempt ? [{ ...outcome.attempt, eventCreatedAt: created.get(outcome.id) as Date }] : [])),
        settled.map((delivery) => delivery.status),
      );
    } catch (error) {
      // The database is away: the reaper counts these attempts when their leases lapse.
      logger().error({ err: error, deliveries: batch.length }, "webhook attempts could not be settled");
    } finally {
      this.unsettled -= batch.length;
      if (this.held + this.unsettled === 0) this.idle?.();
      // Claiming may have waited for settles to catch up.
      this.wake();
    }
  }

  /** An attempt's POST ended (answered or not): its slot, and its endpoint's, are free for the next claim. */
  private offTheWire({ item }: Held): void {
    const left = (this.perEndpoint.get(item.endpoint.id) ?? 1) - 1;
    if (left > 0) this.perEndpoint.set(item.endpoint.id, left);
    else this.perEndpoint.delete(item.endpoint.id);
    this.held--;
    observeAttemptsInFlight(-1);
  }
}

/**
 * Slots kept for endpoints holding no attempt of this process (docs/decisions.md, "Delivery engine: a
 * dispatcher per worker"): a tenth of `maxInFlight`. Endpoints already holding attempts (a hundred
 * receivers that never answer hold ten each) share the rest, so they can never take every slot and
 * a healthy endpoint's next delivery still finds one at once.
 */
export function reserveOf(options: Pick<DispatcherOptions, "maxInFlight">): number {
  return Math.floor(options.maxInFlight / 10);
}

/**
 * What one claim may take: with more free slots than the reserve, every endpoint up to its own limit
 * within the slots above the reserve, and an unanswering endpoint (its last attempt here got no answer)
 * one attempt at a time; with only the reserve left, one attempt each for answering endpoints holding
 * none, and nothing for the others. A resting endpoint (its rate window full until the window ends)
 * gets nothing; a paced one (`paced`: its starts allowed now) at most those.
 */
export function claimSlots(
  options: Pick<DispatcherOptions, "maxInFlight" | "endpointMaxInFlight">,
  free: number,
  held: ReadonlyMap<string, number>,
  unanswering: ReadonlySet<string> = new Set(),
  resting: ReadonlySet<string> = new Set(),
  paced: ReadonlyMap<string, number> = new Map(),
): { limit: number; endpointLimit: number; busy: Record<string, number> } {
  const reserve = reserveOf(options);
  const busy: Record<string, number> = {};
  if (free > reserve) {
    const limit = options.endpointMaxInFlight;
    for (const [id, n] of held) busy[id] = n;
    // An unanswering endpoint may hold one: its busy count leaves it `limit - 1` short of its limit.
    for (const id of unanswering) busy[id] = Math.min(limit, (held.get(id) ?? 0) + limit - 1);
    for (const id of resting) busy[id] = limit;
    for (const [id, allowed] of paced) if (allowed < limit) busy[id] = Math.max(busy[id] ?? 0, limit - allowed);
    return { limit: free - reserve, endpointLimit: limit, busy };
  }
  for (const id of held.keys()) busy[id] = 1;
  for (const id of unanswering) busy[id] = 1;
  for (const id of resting) busy[id] = 1;
  for (const [id, allowed] of paced) if (allowed <= 0) busy[id] = 1;
  return { limit: free, endpointLimit: 1, busy };
}

/** An attempt cut by the stop: its delivery waits again, due now, the attempt not counted. */
function handBack({ delivery }: ClaimedDelivery): Outcome {
  return {
    id: delivery.id,
    status: delivery.attemptNumber === 0 ? "pending" : "retrying",
    attemptNumber: delivery.attemptNumber,
    lastAttemptedAt: delivery.lastAttemptedAt,
    durationMs: delivery.durationMs,
    lastAttemptFailureReason: delivery.lastAttemptFailureReason,
    nextRetryAt: new Date(),
  };
}

// Next.js bundles its pages apart from the modules scripts/serve.ts imports: the dispatcher lives on
// globalThis so the delivery task's handler finds the one the worker started, in any copy of this module.
const slot = globalThis as unknown as { [key: symbol]: Dispatcher | undefined };
const KEY = Symbol.for("pis.webhook-dispatcher");

/** This process's dispatcher, when its worker runs one. */
export function runningDispatcher(): Dispatcher | undefined {
  return slot[KEY];
}

/** The worker service (src/server/jobs/worker.ts) that runs this process's dispatcher with the worker. */
export const webhookDispatcherService = {
  name: "webhook-dispatcher",
  start(): void {
    if (slot[KEY]) return;
    const config = getConfig();
    const dispatcher = new Dispatcher({ maxInFlight: config.webhookMaxInFlight, endpointMaxInFlight: config.webhookEndpointMaxInFlight });
    slot[KEY] = dispatcher;
    dispatcher.start();
  },
  async stop(budgetMs: number): Promise<void> {
    const dispatcher = slot[KEY];
    // Kept in place while it drains: a delivery job run meanwhile only wakes it (a no-op while stopping).
    await dispatcher?.stop(budgetMs);
    if (slot[KEY] === dispatcher) slot[KEY] = undefined;
  },
};
