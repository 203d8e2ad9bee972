import { createHmac } from "node:crypto";
import { constantTimeEqual } from "../../server/secrets";

/** decisions §6: signatures older or newer than five minutes are refused (spec Limits). */
export const SIGNATURE_MAX_AGE_SECONDS = 300;

/** The digest's hex may be in either letter case (docs/decisions.md, Authentication); the keys `t` and `v1` are lower case. */
const HEADER_FORMAT = /^t=(\d{1,12}),v1=([0-9a-fA-F]{64})$/;

export type SignedRequest = { method: string; pathWithQuery: string; rawBody: string };

export function requestSignatureDigest(secret: string, timestamp: number, request: SignedRequest): string {
  return createHmac("sha256", secret).update(`${timestamp}.${request.method.toUpperCase()}.${request.pathWithQuery}.${request.rawBody}`, "utf8").digest("hex");
}

/** `X-Request-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<METHOD>.<path>.<raw body>")>` */
export function signRequest(secret: string, request: SignedRequest, now = new Date()): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${requestSignatureDigest(secret, t, request)}`;
}

/** True only for a well-formed header, fresh within five minutes, whose digest matches. */
export function isValidRequestSignature(header: string, secret: string, request: SignedRequest, now = new Date()): boolean {
  const match = HEADER_FORMAT.exec(header.trim());
  if (!match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > SIGNATURE_MAX_AGE_SECONDS) return false;
  return constantTimeEqual(match[2].toLowerCase(), requestSignatureDigest(secret, timestamp, request));
}
