import { createHmac, timingSafeEqual } from "node:crypto";

/** The body of every delivery: exactly these three keys (spec Events, Body). */
export type WebhookPayload = { event: string; property_owner_slug: string; data: Record<string, unknown> };

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type VerifyOptions = {
  /** Largest distance between `t` and now, in seconds (default 300, five minutes). */
  toleranceSeconds?: number;
  /** The clock, in milliseconds (tests pass their own). */
  now?: () => number;
};

export type VerificationFailure = "missing_header" | "malformed_signature" | "timestamp_mismatch" | "timestamp_out_of_tolerance" | "signature_mismatch";

export class WebhookVerificationError extends Error {
  constructor(readonly reason: VerificationFailure) {
    super(`webhook signature not verified: ${reason}`);
    this.name = "WebhookVerificationError";
  }
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Verifies a delivery as the service signs it (spec Events, Headers): `X-Webhook-Signature` is
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each `v1` the HMAC-SHA256 keyed with the signing secret of
 * `<t>.<raw body bytes>`, and `t` equals `X-Webhook-Timestamp`. During a secret rotation the service
 * sends one `v1` per secret, so any matching one passes; several secrets may be given here too.
 * Every attempt is signed afresh, so a `t` older than the tolerance is a replay, not a late retry.
 * Returns the parsed body; throws `WebhookVerificationError` otherwise. Pass the raw bytes as
 * received, never a re-serialized object.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookPayload {
  const signature = header(headers, "x-webhook-signature");
  const timestamp = header(headers, "x-webhook-timestamp");
  if (!signature || !timestamp) throw new WebhookVerificationError("missing_header");
  const parts = signature.split(",").map((part) => {
    const at = part.indexOf("=");
    return at < 0 ? ["", ""] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const t = parts.find(([key]) => key === "t")?.[1];
  const digests = parts.filter(([key, value]) => key === "v1" && /^[0-9a-f]{64}$/.test(value)).map(([, value]) => Buffer.from(value, "hex"));
  if (!t || !/^\d{1,12}$/.test(t) || digests.length === 0) throw new WebhookVerificationError("malformed_signature");
  if (t !== timestamp.trim()) throw new WebhookVerificationError("timestamp_mismatch");
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(t)) > tolerance) throw new WebhookVerificationError("timestamp_out_of_tolerance");
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
  const secrets = typeof secret === "string" ? [secret] : secret;
  const matches = secrets.some((key) => {
    const expected = createHmac("sha256", key).update(`${t}.`, "utf8").update(body).digest();
    // Every candidate is compared in constant time, whatever matched before.
    return digests.map((digest) => timingSafeEqual(digest, expected)).includes(true);
  });
  if (!matches) throw new WebhookVerificationError("signature_mismatch");
  return JSON.parse(body.toString("utf8")) as WebhookPayload;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}
