import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { getConfig } from "../config";
import { getSql } from "../db/client";

/**
 * Prometheus metrics of this process (docs/decisions.md "Hardening: metrics", shared decisions §14): one
 * registry per process, kept on globalThis because Next.js bundles the route handlers, the start
 * hook and the front server apart, and all of them record into it. Label values are fixed words or
 * route templates, never a slug or an id (`routeTemplate`, `pageRoute`).
 */

/** HTTP answers: 5 ms to 10 s. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Jobs and webhook attempts: 5 ms to 60 s (an attempt has a 10 s budget, a batch its lease). */
const WORK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Waits measured from a partner's write: 10 ms to 10 min. */
const DELAY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600];

/** The label of a gateway request no route matched, and of a page path outside the known surfaces. */
export const UNMATCHED_ROUTE = "unmatched";

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const samplers: Sampler<unknown>[] = [];
  const queue = sampled(samplers, async () => {
    const sql = await getSql();
    // Only the ready jobs, through graphile-worker's partial index of available jobs
    // (`jobs_main_index`): never the whole table.
    const [row] = await sql<{ ready: number; oldest: number | null }[]>`
      select count(*)::int as ready, extract(epoch from now() - min(run_at))::float8 as oldest
      from graphile_worker._private_jobs where is_available and run_at <= now()`;
    return row;
  });
  const pool = sampled(samplers, async () => {
    const sql = await getSql();
    // This process's own connections (its application_name, `src/server/db/client.ts`), the
    // scrape's own connection left out.
    return sql<{ state: string; n: number }[]>`
      select case when wait_event_type = 'Lock' then 'waiting' when state = 'idle' then 'idle' else 'in_use' end as state, count(*)::int as n
      from pg_stat_activity
      where application_name = current_setting('application_name') and pid <> pg_backend_pid()
      group by 1`;
  });
  return {
    registry,
    /** A new scrape: the gauges' database samples are taken anew, once for the scrape. */
    beginScrape: () => {
      for (const sampler of samplers) sampler.forget();
    },
    httpRequests: new Counter({
      name: "pis_http_requests_total",
      help: "HTTP requests answered, by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "pis_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    jobs: new Counter({
      name: "pis_jobs_total",
      help: "Jobs run by this process, by task and outcome (success; error: retried later; failed: its last attempt)",
      labelNames: ["task", "outcome"] as const,
      registers,
    }),
    jobDuration: new Histogram({
      name: "pis_job_duration_seconds",
      help: "Time a job's handler ran, by task and outcome",
      labelNames: ["task", "outcome"] as const,
      buckets: WORK_BUCKETS,
      registers,
    }),
    queueReady: new Gauge({
      name: "pis_job_queue_ready",
      help: "Jobs due and not taken by a worker (the whole database's queue, as every process sees it)",
      registers,
      async collect() {
        const row = await queue().catch(() => undefined);
        if (row) this.set(row.ready);
        else this.reset();
      },
    }),
    queueOldest: new Gauge({
      name: "pis_job_queue_oldest_ready_seconds",
      help: "How long the oldest due job not taken by a worker has waited (0 when none)",
      registers,
      async collect() {
        const row = await queue().catch(() => undefined);
        if (row) this.set(Math.max(0, row.oldest ?? 0));
        else this.reset();
      },
    }),
    deliveries: new Counter({
      name: "pis_webhook_deliveries_total",
      help: "Webhook delivery attempts settled, by the status they left the delivery in",
      labelNames: ["outcome"] as const,
      registers,
    }),
    attemptDuration: new Histogram({
      name: "pis_webhook_attempt_duration_seconds",
      help: "Duration of each webhook HTTP attempt (DNS, connection, answer)",
      buckets: WORK_BUCKETS,
      registers,
    }),
    firstAttemptDelay: new Histogram({
      name: "pis_webhook_first_attempt_delay_seconds",
      help: "Time from a webhook event's creation to the start of its delivery's first attempt",
      buckets: DELAY_BUCKETS,
      registers,
    }),
    attemptsInFlight: new Gauge({
      name: "pis_webhook_attempts_in_flight",
      help: "Webhook attempts this process holds (claimed and not yet settled)",
      registers,
    }),
    endpointsPaced: new Gauge({
      name: "pis_webhook_endpoints_paced",
      help: "Endpoints this process spreads across their rate window (more due than the window still allows)",
      registers,
    }),
    attemptWait: new Histogram({
      name: "pis_webhook_attempt_wait_seconds",
      help: "Time from a webhook delivery falling due (its creation or its next_retry_at) to the start of its attempt",
      buckets: DELAY_BUCKETS,
      registers,
    }),
    apiRunning: new Gauge({
      name: "pis_api_requests_running",
      help: "Partner API requests holding one of this process's slots (at most API_MAX_CONCURRENT)",
      registers,
    }),
    apiQueued: new Gauge({
      name: "pis_api_requests_queued",
      help: "Partner API requests waiting in this process for a slot (each client's queue at most API_MAX_QUEUED_PER_CLIENT)",
      registers,
    }),
    apiQueueWait: new Histogram({
      name: "pis_api_queue_wait_seconds",
      help: "Time a Partner API request waited for a slot before it ran (0 when one was free)",
      buckets: HTTP_BUCKETS,
      registers,
    }),
    apiQueueRefusals: new Counter({
      name: "pis_api_queue_refusals_total",
      help: "Partner API requests refused with 429 by this process's queue: full (the client's queue at its bound) or timeout (waited API_MAX_QUEUE_WAIT_SECONDS)",
      labelNames: ["reason"] as const,
      registers,
    }),
    renterMessages: new Counter({
      name: "pis_renter_messages_total",
      help: "Renter messages settled by this process, by kind and outcome (sent; kept: no SMTP_URL; retried: refused for now; failed: refused for good or out of time)",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    eligibility: new Histogram({
      name: "pis_prospect_eligibility_seconds",
      help: "Time from the write that put a prospect in processing to its eligibility decision",
      buckets: DELAY_BUCKETS,
      registers,
    }),
    disputes: new Counter({
      name: "pis_payment_disputes_total",
      help: "Payment disputes recorded by this process, by what happened (opened; won, lost or closed when it ended)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    poolMax: new Gauge({
      name: "pis_db_pool_max_connections",
      help: "Connections this process's database pool may open (DB_POOL_SIZE)",
      registers,
      collect() {
        this.set(getConfig().dbPoolSize);
      },
    }),
    pool: new Gauge({
      name: "pis_db_pool_connections",
      help: "This process's database connections by state (in_use, idle, waiting: in use and waiting for a lock)",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        const rows = await pool().catch(() => undefined);
        this.reset();
        if (!rows) return;
        for (const state of ["in_use", "idle", "waiting"]) this.set({ state }, rows.find((row) => row.state === state)?.n ?? 0);
      },
    }),
  };
}

type Sampler<T> = { take: () => Promise<T>; forget: () => void };

/** One query shared by the gauges of a scrape (prom-client collects them side by side). */
function sampled<T>(samplers: Sampler<unknown>[], query: () => Promise<T>): () => Promise<T> {
  let last: Promise<T> | undefined;
  const sampler: Sampler<T> = {
    take: () => {
      last ??= query();
      return last;
    },
    forget: () => {
      last = undefined;
    },
  };
  samplers.push(sampler);
  return sampler.take;
}

type Metrics = ReturnType<typeof create>;
const KEY = Symbol.for("pis.metrics");
const slot = globalThis as unknown as { [KEY]?: Metrics };

function metrics(): Metrics {
  slot[KEY] ??= create();
  return slot[KEY];
}

/** Records one HTTP answer. `route` is a template or a fixed label, never a raw path. */
export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method: methodLabel(method), status: String(status) };
  const m = metrics();
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, seconds);
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** A method outside HTTP's usual ones is `other` (any token is a valid method: a scanner's too). */
export function methodLabel(method: string): string {
  const upper = method.toUpperCase();
  return METHODS.has(upper) ? upper : "other";
}

/**
 * A gateway route's label: the gateway's prefix and the matched procedure's OpenAPI path
 * (`/api/partners/{owner_slug}/prospects`), or UNMATCHED_ROUTE when no route matched.
 */
export function routeTemplate(prefix: string, openapiPath: string | undefined): string {
  return openapiPath ? `${prefix}${openapiPath}` : UNMATCHED_ROUTE;
}

/**
 * The label of a request Next.js serves (pages, the console's tRPC endpoint, documents): the
 * surface's fixed prefix, whatever follows it (an enrollment token, a document key, a procedure
 * name) left out. Anything else is UNMATCHED_ROUTE.
 */
export function pageRoute(pathname: string): string {
  if (pathname === "/") return "/";
  for (const prefix of PAGE_PREFIXES) if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return prefix;
  return UNMATCHED_ROUTE;
}

/** Longest first: the first match is the most specific. */
const PAGE_PREFIXES = [
  "/console/api/trpc",
  "/console/api/auth",
  "/api/openapi.json",
  "/api/docs",
  "/_next/static",
  "/_next",
  "/console",
  "/enroll",
  "/demo",
  "/documents",
  "/healthz",
  "/readyz",
  "/metrics",
  "/favicon.ico",
];

/** Counts an answer Next.js (or the front server itself) gives, once it is written. */
export function observePageRequest(req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  res.once("finish", () => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    observeHttpRequest(pageRoute(query === -1 ? url : url.slice(0, query)), req.method ?? "GET", res.statusCode, (performance.now() - started) / 1000);
  });
}

/** How a job's run ended: `error` will be retried, `failed` was its last attempt. */
export function observeJob(task: string, outcome: "success" | "error" | "failed", seconds: number): void {
  const m = metrics();
  m.jobs.inc({ task, outcome });
  m.jobDuration.observe({ task, outcome }, seconds);
}

/**
 * A batch of webhook attempts as settled: the status each delivery was left in
 * (`delivered`, `retrying`, `failed`, `rate_limited`), each HTTP try's duration, and for first
 * attempts the time since the delivery was recorded with its event.
 */
export function observeWebhookAttempts(
  attempts: readonly { number: number; startedAt: Date; durationMs: number; eventCreatedAt: Date }[],
  settledStatuses: readonly string[],
): void {
  const m = metrics();
  for (const status of settledStatuses) m.deliveries.inc({ outcome: status });
  for (const attempt of attempts) {
    m.attemptDuration.observe(attempt.durationMs / 1000);
    if (attempt.number === 1) m.firstAttemptDelay.observe(Math.max(0, (attempt.startedAt.getTime() - attempt.eventCreatedAt.getTime()) / 1000));
  }
}

/** The dispatcher took (`delta` > 0) or settled (`delta` < 0) webhook attempts (docs/decisions.md, "Delivery engine: a dispatcher per worker"). */
export function observeAttemptsInFlight(delta: number): void {
  metrics().attemptsInFlight.inc(delta);
}

/** Endpoints a dispatcher began (+1) or ended (−1) spreading across their rate window (`pis_webhook_endpoints_paced`). */
export function observeEndpointsPaced(delta: number): void {
  metrics().endpointsPaced.inc(delta);
}

/**
 * The Partner API's fair queue (docs/decisions.md, "A fair Partner API"): requests that took a slot
 * (`running` +1) or gave it back (−1), joined a client's queue (`queued` +1) or left it (−1).
 */
export function observeApiSlots(change: { running?: number; queued?: number }): void {
  const m = metrics();
  if (change.running) m.apiRunning.inc(change.running);
  if (change.queued) m.apiQueued.inc(change.queued);
}

/** A Partner API request took a slot after waiting `seconds` for it. */
export function observeApiQueueWait(seconds: number): void {
  metrics().apiQueueWait.observe(seconds);
}

/** A Partner API request refused by the queue (429). */
export function observeApiQueueRefusal(reason: "full" | "timeout"): void {
  metrics().apiQueueRefusals.inc({ reason });
}

/** Claimed deliveries' waits, in seconds, from falling due to their attempt's start. */
export function observeAttemptWaits(seconds: readonly number[]): void {
  const m = metrics();
  for (const wait of seconds) m.attemptWait.observe(Math.max(0, wait));
}

/** A renter message's send settled (docs/operations.md, "Renter messages"). */
export function observeRenterMessage(kind: string, outcome: "sent" | "kept" | "retried" | "failed"): void {
  metrics().renterMessages.inc({ kind, outcome });
}

/** A prospect's eligibility decided: the time since the write that made it `processing`. */
export function observeProspectEligibility(processingSince: Date): void {
  metrics().eligibility.observe(Math.max(0, (Date.now() - processingSince.getTime()) / 1000));
}

/** A payment dispute opened or ended (decisions §18 Disputes). */
export function observePaymentDispute(outcome: "opened" | "won" | "lost" | "closed"): void {
  metrics().disputes.inc({ outcome });
}

/**
 * `GET /metrics` (shared decisions §14): 404 while METRICS_TOKEN is unset, 401 without
 * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time), else the text exposition.
 * Answers true when the request was this route's.
 */
export function serveMetrics(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "/";
  if (url !== "/metrics" && !url.startsWith("/metrics?")) return false;
  const token = getConfig().metricsToken;
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
    res.end(JSON.stringify(body));
  };
  if (!token) {
    answer(404, { status_code: 404, error: "Not found" });
    return true;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    answer(405, { status_code: 405, error: "Method not allowed" }, { allow: "GET, HEAD" });
    return true;
  }
  if (!bearerMatches(req.headers.authorization, token)) {
    answer(401, { status_code: 401, error: "Unauthorized" }, { "www-authenticate": 'Bearer realm="metrics"' });
    return true;
  }
  const { registry, beginScrape } = metrics();
  beginScrape();
  registry.metrics().then(
    (text) => {
      res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : text);
    },
    () => answer(500, { status_code: 500, error: "Internal server error" }),
  );
  return true;
}

/**
 * Whether `Authorization` is `Bearer <token>`; `/readyz`'s reasons use it too. Constant-time
 * comparison of digests, so neither the token's content nor its length leaks.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? "");
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match?.[1] ?? ""), digest(token)) && match !== null;
}
