import path from "node:path";
import { z } from "zod";

/**
 * Validated environment (shared/design/decisions.md §3). Read lazily so tests and the CLI can set
 * variables before the first use; call `resetConfig()` after changing them.
 */
const Env = z.object({
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
  AUTH_SECRET: z.string().optional(),
});

export type Config = {
  port: number;
  publicBaseUrl: string;
  partnerBaseUrl: string;
  ingestBaseUrl: string;
  enrollmentBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  appEnv: "staging" | "production";
  worker: "inline" | "off";
  allowPrivateWebhookDestinations: boolean;
  logLevel: z.infer<typeof Env>["LOG_LEVEL"];
  masterKey: string | undefined;
  authSecret: string | undefined;
  /** Audiences of the two gateways (decisions §5): a token of one is refused by the other. */
  partnerAudience: string;
  ingestionAudience: string;
};

let cached: Config | undefined;

export function getConfig(): Config {
  if (cached) return cached;
  const env = Env.parse(process.env);
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  cached = {
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
    authSecret: env.AUTH_SECRET,
    partnerAudience: `urn:pis:partner-api:${env.APP_ENV}`,
    ingestionAudience: `urn:pis:ingestion:${env.APP_ENV}`,
  };
  return cached;
}

export function resetConfig(): void {
  cached = undefined;
}
