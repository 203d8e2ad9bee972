import { randomBytes } from "node:crypto";

/** What the local Stripe-compatible server's parts share (src/test/stripe-server.ts). */

export type Json = Record<string, unknown>;

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An answer in Stripe's error shape (`{error: {type, code, message, param, …}}`) with its HTTP status. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeError(400, {
    type: "invalid_request_error",
    message,
    ...(param ? { param } : {}),
    ...(code ? { code, doc_url: `https://docs.stripe.com/error-codes/${code.replaceAll("_", "-")}` } : {}),
  });

export const missing = (kind: string, value: string) =>
  new StripeError(404, { type: "invalid_request_error", code: "resource_missing", message: `No such ${kind}: '${value}'`, param: "id" });

/** What a part of the server needs of the whole: its objects and its event log. */
export type ServerState = {
  intents: Map<string, { object: Json }>;
  charges: Map<string, Json>;
  emit(type: string, object: Json): void;
};
