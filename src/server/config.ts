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
  PAYMENT_PROCESSOR: z.enum(["simulated", "none"]).optional(),
  TRUST_PROXY: z.enum(["0", "1"]).default("0"),
  // decisions §14 Retention: days, 0 keeps forever.
  RETENTION_DELIVERIES_DAYS: z.coerce.number().int().min(0).default(90),
  RETENTION_INGESTION_DAYS: z.coerce.number().int().min(0).default(30),
  RETENTION_DOCUMENTS_DAYS: z.coerce.number().int().min(0).default(365),
  RETENTION_AUDIT_DAYS: z.coerce.number().int().min(0).default(0),
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
});
/**
 * Validated environment (shared/design/decisions.md §3) → the `Config` the code reads. `Config` is this
 * schema's output, so a variable is added in this file alone (docs/decisions.md, Structure: small truths).
 */
const Env = EnvVariables.refine((env) => !(env.APP_ENV === "production" && env.PAYMENT_PROCESSOR === "simulated"), {
  // decisions §10: the simulated processor records and never charges; in production it would give policies away.
  message: "PAYMENT_PROCESSOR=simulated is refused in production (it never charges)",
  path: ["PAYMENT_PROCESSOR"],
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
     * Payments (decisions §10): `simulated` records charges and never contacts anything (staging only);
     * `none` refuses payment until a real processor is configured. Default: `simulated` in staging, `none` in production.
     */
    paymentProcessor: env.PAYMENT_PROCESSOR ?? (env.APP_ENV === "production" ? "none" : "simulated"),
    /**
     * A reverse proxy that appends the client's address to `X-Forwarded-For` stands in front of the web
     * process; otherwise that header is replaced by the connection's address (console sign-in limits).
     */
    trustProxy: env.TRUST_PROXY === "1",
    /**
     * How many days finished records are kept (decisions §14 Retention; docs/decisions.md, Hardening: retention),
     * `0` keeping them forever: final deliveries with their attempts and events, processed ingestion
     * events, superseded document archives, the audit log.
     */
    retentionDays: {
      deliveries: env.RETENTION_DELIVERIES_DAYS,
      ingestion: env.RETENTION_INGESTION_DAYS,
      documents: env.RETENTION_DOCUMENTS_DAYS,
      audit: env.RETENTION_AUDIT_DAYS,
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
    /** Audiences of the two gateways (decisions §5): a token of one is refused by the other. */
    partnerAudience: `urn:pis:partner-api:${env.APP_ENV}`,
    ingestionAudience: `urn:pis:ingestion:${env.APP_ENV}`,
  };
});

export type Config = z.output<typeof Env>;

let cached: Config | undefined;

/** Read lazily so tests and the CLI can set variables before the first use; call `resetConfig()` after changing them. */
export function getConfig(): Config {
  cached ??= Env.parse(process.env);
  return cached;
}

export function resetConfig(): void {
  cached = undefined;
}
