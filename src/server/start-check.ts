import { ZodError } from "zod";
import { getConfig } from "./config";

/** 32 bytes in standard base64, as `openssl rand -base64 32` prints them. */
export function isMasterKey(value: string): boolean {
  const bytes = Buffer.from(value, "base64");
  return bytes.length === 32 && bytes.toString("base64") === value;
}

const MIN_AUTH_SECRET_LENGTH = 32;

/**
 * What a process refuses to start with, one sentence per variable (decisions §14 "Production is
 * given, never invents"). Production: both keys given and strong enough, no demo seed, no private
 * webhook destinations. Every environment: a key that is given is well formed, and the previous
 * master key of a rotation is not the current one.
 */
export function startRefusals(env: NodeJS.ProcessEnv = process.env): string[] {
  const refusals: string[] = [];
  const production = env.APP_ENV === "production";
  const masterKey = env.MASTER_KEY || undefined;
  const previous = env.MASTER_KEY_PREVIOUS || undefined;
  if (production && !masterKey) refusals.push("MASTER_KEY is required in production (32 random bytes in base64: openssl rand -base64 32)");
  else if (masterKey && !isMasterKey(masterKey)) refusals.push("MASTER_KEY must be 32 bytes encoded in base64 (openssl rand -base64 32)");
  if (previous && !isMasterKey(previous)) refusals.push("MASTER_KEY_PREVIOUS must be 32 bytes encoded in base64, like MASTER_KEY");
  else if (previous && !masterKey) refusals.push("MASTER_KEY_PREVIOUS is only read beside a MASTER_KEY (the key being rotated to)");
  else if (previous && previous === masterKey) refusals.push("MASTER_KEY_PREVIOUS must differ from MASTER_KEY");
  if (production) {
    const authSecret = env.AUTH_SECRET ?? "";
    if (authSecret.length < MIN_AUTH_SECRET_LENGTH)
      refusals.push(`AUTH_SECRET is required in production, at least ${MIN_AUTH_SECRET_LENGTH} characters (openssl rand -base64 32)`);
    if (env.SEED_DEMO === "1") refusals.push("SEED_DEMO=1 is refused in production (the demo seeds a partner and a console login and prints their secrets)");
    if (env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS && env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS !== "0")
      refusals.push("WEBHOOK_ALLOW_PRIVATE_DESTINATIONS is refused in production (webhooks may not reach loopback or private addresses)");
    // decisions §19: production sends renter messages; keeping them silently would lose every one.
    if (!env.SMTP_URL) refusals.push("SMTP_URL is required in production (smtp:// or smtps:// URL of the mail relay renter messages are sent through)");
    if (!env.MAIL_FROM?.trim()) refusals.push("MAIL_FROM is required in production (the From of renter messages, e.g. Acme Insurance <no-reply@acme.example>)");
  }
  return refusals;
}

/**
 * The first thing every process's entry point does (`npm start`, the web process, `npm run worker`,
 * the CLI): a refused configuration exits non-zero before anything listens, is built or is written,
 * with one line on stderr naming each variable (decisions §14).
 */
export function refuseUnsafeStart(): void {
  let refusals = startRefusals();
  if (refusals.length === 0) {
    try {
      getConfig();
    } catch (error) {
      if (!(error instanceof ZodError)) throw error;
      refusals = error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    }
  }
  if (refusals.length === 0) return;
  process.stderr.write(`Refusing to start: ${refusals.join("; ")}\n`);
  process.exit(1);
}
