import { Resolver } from "node:dns";
import path from "node:path";
import { z } from "zod";

/**
 * Every variable the service reads itself (shared/design/decisions.md §3; docs/operations.md, Environment),
 * with its default and its validation. `config.test.ts` holds the documentation to it.
 */
export const EnvVariables = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PUBLIC_BASE_URL: z.string().url().optional(),
  ENROLLMENT_BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  APP_ENV: z.enum(["staging", "production"]).default("staging"),
  WORKER: z.enum(["inline", "off"]).default("inline"),
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  MASTER_KEY: z.string().optional(),
  MASTER_KEY_PREVIOUS: z.string().optional(),
  AUTH_SECRET: z.string().optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(10),
  WORKER_STALE_LOCK_SECONDS: z.coerce.number().positive().default(60),
  WORKER_UNLOCK_INTERVAL_SECONDS: z.coerce.number().positive().default(5),
  WEBHOOK_LEASE_SECONDS: z.coerce.number().positive().default(30),
  WEBHOOK_REAP_INTERVAL_SECONDS: z.coerce.number().positive().default(20),
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10000).default(500),
  WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(10),
  /** Nameservers for webhook destinations (`ip`, `ip:port`, `[ipv6]:port`, comma-separated); unset: the system's. */
  WEBHOOK_DNS_SERVERS: z
    .string()
    .optional()
    .transform(
      (value) =>
        value
          ?.split(",")
          .map((server) => server.trim())
          .filter(Boolean) ?? [],
    )
    .refine(
      (servers) => {
        try {
          new Resolver().setServers(servers);
          return true;
        } catch {
          return false;
        }
      },
      { message: "WEBHOOK_DNS_SERVERS must list IP addresses, optionally with a port (1.1.1.1, 10.0.0.2:5353, [::1]:53)" },
    ),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DB_PREPARE: z.enum(["0", "1"]).default("1"),
  SKIP_BUILD: z.enum(["0", "1"]).default("0"),
  SEED_DEMO: z.enum(["0", "1"]).optional(),
  PAYMENT_PROCESSOR: z.enum(["simulated", "none", "stripe"]).optional(),
  // decisions §18 Configuration: Stripe's keys (Dashboard → Developers → API keys, Webhooks).
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.string().url().optional(),
  TRUST_PROXY: z.enum(["0", "1"]).default("0"),
  // decisions §14 Retention: days, 0 keeps forever.
  RETENTION_DELIVERIES_DAYS: z.coerce.number().int().min(0).default(90),
  RETENTION_INGESTION_DAYS: z.coerce.number().int().min(0).default(30),
  RETENTION_DOCUMENTS_DAYS: z.coerce.number().int().min(0).default(365),
  RETENTION_AUDIT_DAYS: z.coerce.number().int().min(0).default(0),
  // docs/decisions.md, "Retention: renter messages and the account": settled renter messages, as deliveries.
  RETENTION_MESSAGES_DAYS: z.coerce.number().int().min(0).default(90),
  // decisions §16 Auto-suspend: days without a successful delivery while some were attempted; 0 never suspends.
  ENDPOINT_AUTO_SUSPEND_DAYS: z.coerce.number().int().min(0).max(365).default(5),
  METRICS_TOKEN: z.string().optional(),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().default(25),
  READY_WORKER_HEARTBEAT_SECONDS: z.coerce.number().min(0).default(30),
  READY_QUEUE_MAX_AGE_SECONDS: z.coerce.number().min(0).default(300),
  // decisions §19 Outbox: renter messages go out over SMTP; unset, they are kept (staging's default).
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, { message: "SMTP_URL must be an smtp:// or smtps:// URL (smtps://user:password@relay.example:465)" })
    .optional()
    .or(z.literal("")),
  MAIL_FROM: z.string().trim().min(3).optional().or(z.literal("")),
  SMTP_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(30),
  // decisions §17: requests a second per Partner API client, bursts up to twice that; 0 turns the limit off.
  API_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).max(1_000_000).default(100),
  // Token exchanges a second per client id and per client address (bursts twice that); 0 turns each off.
  TOKEN_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).max(1_000_000).default(10),
  TOKEN_RATE_LIMIT_PER_ADDRESS_PER_SECOND: z.coerce.number().min(0).max(1_000_000).default(100),
  // decisions §17: Partner API requests running at once in this process (0: no limit), and what one client may have waiting for them.
  API_MAX_CONCURRENT: z.coerce.number().int().min(0).max(10_000).default(4),
  API_MAX_QUEUED_PER_CLIENT: z.coerce.number().int().min(0).max(100_000).default(100),
  API_MAX_QUEUE_WAIT_SECONDS: z.coerce.number().positive().max(600).default(10),
});
/**
 * Validated environment (shared/design/decisions.md §3) → the `Config` the code reads. `Config` is this
 * schema's output, so a variable is added in this file alone (docs/decisions.md, Structure: small truths).
 */
// decisions §10, §18: the simulated processor never charges (in production it would give policies away), and
// production pays through Stripe with live keys.
const Env = EnvVariables.superRefine((env, context) => {
  for (const problem of stripeRefusals(env, { inProcess: true })) context.addIssue({ code: "custom", message: problem.message, path: [problem.variable] });
}).transform((env) => {
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    port: env.PORT,
    publicBaseUrl,
    partnerBaseUrl: `${publicBaseUrl}/api`,
    ingestBaseUrl: `${publicBaseUrl}/ingest`,
    enrollmentBaseUrl: (env.ENROLLMENT_BASE_URL ?? `${publicBaseUrl}/enroll`).replace(/\/+$/, ""),
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    appEnv: env.APP_ENV,
    worker: env.WORKER,
    allowPrivateWebhookDestinations: env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS === "1",
    logLevel: env.LOG_LEVEL,
    masterKey: env.MASTER_KEY,
    /** The key being rotated away from: read, never written (docs/decisions.md, Hardening: production start). */
    previousMasterKey: env.MASTER_KEY_PREVIOUS || undefined,
    authSecret: env.AUTH_SECRET,
    /** Jobs run at once per worker process. */
    workerConcurrency: env.WORKER_CONCURRENCY,
    /** A job locked longer than this belongs to a dead worker and is unlocked. */
    workerStaleLockSeconds: env.WORKER_STALE_LOCK_SECONDS,
    /** How often dead workers' jobs are looked for. */
    workerUnlockIntervalSeconds: env.WORKER_UNLOCK_INTERVAL_SECONDS,
    /** How long a worker owns a delivery attempt before it can be recovered. */
    webhookLeaseSeconds: env.WEBHOOK_LEASE_SECONDS,
    /** How often lapsed deliveries are recovered. */
    webhookReapIntervalSeconds: env.WEBHOOK_REAP_INTERVAL_SECONDS,
    /** Delivery attempts a worker process keeps in flight at once, whatever WORKER_CONCURRENCY is (decisions §17). */
    webhookMaxInFlight: env.WEBHOOK_MAX_IN_FLIGHT,
    /** Attempts of one endpoint a worker process keeps in flight at once (decisions §17). */
    webhookEndpointMaxInFlight: env.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT,
    /** Nameservers asked for webhook destinations; empty: the system's (`/etc/resolv.conf`). */
    webhookDnsServers: env.WEBHOOK_DNS_SERVERS,
    dbPoolSize: env.DB_POOL_SIZE,
    /** Statements stay prepared per connection (off behind a transaction-mode pooler). */
    dbPrepare: env.DB_PREPARE === "1",
    /** `npm start` skips `next build` even when sources changed. */
    skipBuild: env.SKIP_BUILD === "1",
    /** `npm start` seeds the demo partner, owner and console user (staging's default; refused in production, decisions §14). */
    seedDemo: (env.SEED_DEMO ?? (env.APP_ENV === "production" ? "0" : "1")) === "1",
    /**
     * Payments (decisions §10, §18): `simulated` records charges and never contacts anything (staging only);
     * `none` refuses payment (staging only); `stripe` takes real payments. Default: `simulated` in staging, `stripe` in production.
     */
    paymentProcessor: processorOf(env),
    /**
     * Stripe (decisions §18), when `paymentProcessor` is `stripe`: keys checked by `stripeRefusals`;
     * `apiBase` (staging only) points the SDK at a Stripe-compatible server (the tests' own).
     */
    stripe:
      processorOf(env) === "stripe"
        ? {
            secretKey: env.STRIPE_SECRET_KEY ?? "",
            publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? "",
            webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? "",
            apiBase: env.STRIPE_API_BASE,
          }
        : undefined,
    /**
     * A reverse proxy that appends the client's address to `X-Forwarded-For` stands in front of the web
     * process; otherwise that header is replaced by the connection's address (console sign-in limits).
     */
    trustProxy: env.TRUST_PROXY === "1",
    /**
     * How many days finished records are kept (decisions §14 Retention; docs/decisions.md, Hardening: retention),
     * `0` keeping them forever: final deliveries with their attempts and events, processed ingestion
     * events, superseded document archives, the audit log, settled renter messages.
     */
    retentionDays: {
      deliveries: env.RETENTION_DELIVERIES_DAYS,
      ingestion: env.RETENTION_INGESTION_DAYS,
      documents: env.RETENTION_DOCUMENTS_DAYS,
      audit: env.RETENTION_AUDIT_DAYS,
      messages: env.RETENTION_MESSAGES_DAYS,
    },
    /**
     * An active webhook endpoint none of whose deliveries succeeded for this many days while some were
     * attempted is suspended (decisions §16 Auto-suspend); `0` turns the check off.
     */
    endpointAutoSuspendDays: env.ENDPOINT_AUTO_SUSPEND_DAYS,
    /** Bearer token of `GET /metrics`; unset: the route answers 404 (decisions §14). */
    metricsToken: env.METRICS_TOKEN || undefined,
    /** Port of `npm run worker`'s own HTTP server (`/healthz`, `/readyz`, `/metrics`); unset: none. */
    workerHealthPort: env.WORKER_HEALTH_PORT,
    /** How long a stopping process lets requests in flight and running jobs finish (decisions §14, Shutdown). */
    shutdownTimeoutSeconds: env.SHUTDOWN_TIMEOUT_SECONDS,
    /** Readiness: some worker's heartbeat must be younger than this; 0: not checked. */
    readyWorkerHeartbeatSeconds: env.READY_WORKER_HEARTBEAT_SECONDS,
    /** Readiness: the oldest ready job must be younger than this; 0: not checked. */
    readyQueueMaxAgeSeconds: env.READY_QUEUE_MAX_AGE_SECONDS,
    /**
     * The SMTP relay renter messages are sent through (decisions §19 Outbox; it may carry a password:
     * never logged); unset, messages are kept and shown in the console and on the demo page.
     */
    smtpUrl: env.SMTP_URL || undefined,
    /** The From of renter messages; staging's default names the service's own host. */
    mailFrom: env.MAIL_FROM || `Renter messages <no-reply@${new URL(publicBaseUrl).hostname}>`,
    /** How long an SMTP server may take to connect, greet and answer each command before the attempt is retried. */
    smtpTimeoutSeconds: env.SMTP_TIMEOUT_SECONDS,
    /**
     * Request limits (decisions §17; docs/decisions.md, "Partner developer: rate limits"), counted
     * across every web process: per Partner API client, and on `/token` per client id and per address.
     */
    apiRateLimitPerSecond: env.API_RATE_LIMIT_PER_SECOND,
    tokenRateLimitPerSecond: env.TOKEN_RATE_LIMIT_PER_SECOND,
    tokenRateLimitPerAddressPerSecond: env.TOKEN_RATE_LIMIT_PER_ADDRESS_PER_SECOND,
    /**
     * Fair queuing of the Partner API in each web process (decisions §17; docs/decisions.md, "A fair
     * Partner API"): requests running at once (`0`: unlimited), requests one client may have waiting
     * for a slot, and how long one may wait; beyond either bound 429.
     */
    apiMaxConcurrent: env.API_MAX_CONCURRENT,
    apiMaxQueuedPerClient: env.API_MAX_QUEUED_PER_CLIENT,
    apiMaxQueueWaitSeconds: env.API_MAX_QUEUE_WAIT_SECONDS,
    /** Audiences of the two gateways (decisions §5): a token of one is refused by the other. */
    partnerAudience: `urn:pis:partner-api:${env.APP_ENV}`,
    ingestionAudience: `urn:pis:ingestion:${env.APP_ENV}`,
  };
});

export type Config = z.output<typeof Env>;

type EnvInput = z.output<typeof EnvVariables>;

/**
 * decisions §18 Configuration: production takes real money, so it pays through Stripe (the default
 * there); staging defaults to the simulated processor. `none` (staging only) refuses every payment.
 */
function processorOf(env: Pick<EnvInput, "APP_ENV" | "PAYMENT_PROCESSOR" | "STRIPE_SECRET_KEY">): "simulated" | "none" | "stripe" {
  if (env.PAYMENT_PROCESSOR) return env.PAYMENT_PROCESSOR;
  if (env.APP_ENV !== "production") return "simulated";
  // Production without Stripe's key never starts (`startRefusals`); code reading the configuration in a
  // process that skipped that check (a test) sees a processor that refuses every payment.
  return env.STRIPE_SECRET_KEY ? "stripe" : "none";
}

const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: { pattern: /^(sk|rk)_(live|test)_[A-Za-z0-9_]+$/, what: "a secret key (sk_…) or restricted key (rk_…)" },
  STRIPE_PUBLISHABLE_KEY: { pattern: /^pk_(live|test)_[A-Za-z0-9_]+$/, what: "a publishable key (pk_…)" },
  STRIPE_WEBHOOK_SECRET: { pattern: /^whsec_[A-Za-z0-9_+/=]+$/, what: "the webhook endpoint's signing secret (whsec_…)" },
} as const;

/**
 * What the Stripe configuration refuses (decisions §18 Configuration, §14 one line per variable):
 * production pays through Stripe with live keys and talks to Stripe itself (no `STRIPE_API_BASE`);
 * staging with Stripe takes test keys only, so a staging instance never charges a real card. A key's
 * value is never repeated in a message.
 */
export function stripeRefusals(env: Partial<EnvInput>, options: { inProcess?: boolean } = {}): { variable: string; message: string }[] {
  const production = env.APP_ENV === "production";
  const refusals: { variable: string; message: string }[] = [];
  const processor = processorOf({ APP_ENV: env.APP_ENV ?? "staging", PAYMENT_PROCESSOR: env.PAYMENT_PROCESSOR, STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY });
  if (production && !env.PAYMENT_PROCESSOR && processor !== "stripe") {
    if (!options.inProcess)
      refusals.push({
        variable: "STRIPE_SECRET_KEY",
        message: "STRIPE_SECRET_KEY is required in production (payments go through Stripe: a live secret key sk_live_… or rk_live_…)",
      });
  } else if (production && processor !== "stripe")
    refusals.push({
      variable: "PAYMENT_PROCESSOR",
      message: `PAYMENT_PROCESSOR=${processor} is refused in production (${processor === "simulated" ? "it never charges; " : ""}production takes payment through stripe)`,
    });
  if (production && env.STRIPE_API_BASE)
    refusals.push({ variable: "STRIPE_API_BASE", message: "STRIPE_API_BASE is refused in production (the SDK talks to Stripe itself)" });
  if (processor !== "stripe") return refusals;
  for (const [variable, rule] of Object.entries(STRIPE_KEYS)) {
    const value = env[variable as keyof typeof STRIPE_KEYS];
    if (!value) {
      refusals.push({ variable, message: `${variable} is required with PAYMENT_PROCESSOR=stripe (${rule.what})` });
      continue;
    }
    if (!rule.pattern.test(value)) {
      refusals.push({ variable, message: `${variable} must be ${rule.what}` });
      continue;
    }
    const mode = /_(live|test)_/.exec(value)?.[1];
    if (production && mode === "test") refusals.push({ variable, message: `${variable} must be a live key in production (test keys take no money)` });
    if (!production && mode === "live") refusals.push({ variable, message: `${variable} must be a test key in staging (a live key charges real cards)` });
  }
  return refusals;
}

let cached: Config | undefined;

/** Read lazily so tests and the CLI can set variables before the first use; call `resetConfig()` after changing them. */
export function getConfig(): Config {
  cached ??= Env.parse(process.env);
  return cached;
}

export function resetConfig(): void {
  cached = undefined;
}
