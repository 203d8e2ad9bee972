import { createHmac } from "node:crypto";

/**
 * spec Events, Headers: `X-Webhook-Signature: t=<unix_seconds>,v1=<hex digest>`, the digest being
 * HMAC-SHA256 keyed with the signing secret over `<timestamp>.<raw body>`. During a secret rotation
 * both digests are sent (`v1=<new>,v1=<old>`) so receivers can switch without a gap.
 */
export function webhookDigest(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`, "utf8").digest("hex");
}

export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${webhookDigest(secret, timestamp, rawBody)}`)].join(",");
}
