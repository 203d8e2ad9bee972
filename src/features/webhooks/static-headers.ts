import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors, type FieldErrors } from "../../server/errors";
import { WEBHOOK_MESSAGES } from "./messages";
import { type WebhookEndpoint, webhookEndpoints } from "./webhooks.table";

/** RFC 9110 §5.1: a field name is a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 §5.5: visible characters, spaces and tabs inside, obs-text; no CR, LF, NUL or other controls. */
const FIELD_VALUE = /^[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/;
/** Headers the HTTP client owns for the request's framing and connection. */
const TRANSPORT = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer", "expect"]);
const MAX_HEADERS = 20;
const MAX_VALUE_LENGTH = 4096;

/**
 * spec Delivery mechanics 5: operator headers never override `Content-Type` or any `X-Webhook-*`
 * header; the HTTP client's own framing headers are not theirs either.
 */
export function isServiceHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === "content-type" || lower.startsWith("x-webhook-") || TRANSPORT.has(lower);
}

function problemsOf(set: Record<string, string>, unset: string[]): FieldErrors {
  const problems: FieldErrors = {};
  const add = (name: string, message: string) => {
    problems[name] = [...(problems[name] ?? []), message];
  };
  for (const [name, value] of Object.entries(set)) {
    if (!TOKEN.test(name)) add(name, WEBHOOK_MESSAGES.headerNameInvalid);
    else if (isServiceHeader(name)) add(name, WEBHOOK_MESSAGES.headerReserved);
    if (!FIELD_VALUE.test(value)) add(name, WEBHOOK_MESSAGES.headerValueInvalid);
    else if (value.length > MAX_VALUE_LENGTH) add(name, WEBHOOK_MESSAGES.headerValueTooLong(MAX_VALUE_LENGTH));
  }
  const setNames = Object.keys(set).map((name) => name.toLowerCase());
  for (const name of Object.keys(set)) if (setNames.filter((other) => other === name.toLowerCase()).length > 1) add(name, WEBHOOK_MESSAGES.headerSetTwice);
  for (const name of unset) if (setNames.includes(name.toLowerCase())) add(name, WEBHOOK_MESSAGES.headerSetAndUnset);
  return problems;
}

/**
 * Operator static headers of an endpoint (spec Delivery mechanics 5: configured by the service
 * operator only, never through the API). Names are case-insensitive: setting `x-key` replaces a
 * stored `X-Key`; unsetting an absent name does nothing. Without changes it shows what is stored.
 * Refused as a whole (nothing written) when any header is invalid or reserved.
 */
export async function setStaticHeaders(
  db: Tx,
  endpointId: string,
  changes: { set?: Record<string, string>; unset?: string[] } = {},
): Promise<{ endpoint_id: string; static_headers: Record<string, string> }> {
  const set = changes.set ?? {};
  const unset = changes.unset ?? [];
  const problems = problemsOf(set, unset);
  if (Object.keys(problems).length) throw errors.invalidFields(WEBHOOK_MESSAGES.headersInvalid, problems);
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.deletedAt)))
      .for("no key update");
    if (!endpoint) throw errors.notFound(WEBHOOK_MESSAGES.endpointNotFound);
    const replaced = new Set([...Object.keys(set), ...unset].map((name) => name.toLowerCase()));
    const headers: Record<string, string> = {
      ...Object.fromEntries(Object.entries(endpoint.staticHeaders).filter(([name]) => !replaced.has(name.toLowerCase()))),
      ...set,
    };
    if (Object.keys(headers).length > MAX_HEADERS) throw errors.invalid(WEBHOOK_MESSAGES.tooManyHeaders(MAX_HEADERS));
    if (Object.keys(set).length || unset.length) await tx.update(webhookEndpoints).set({ staticHeaders: headers }).where(eq(webhookEndpoints.id, endpointId));
    return { endpoint_id: endpointId, static_headers: headers };
  });
}

/** The operator headers a delivery sends first (spec Delivery mechanics 5), whatever was stored earlier. */
export function operatorHeaders(endpoint: Pick<WebhookEndpoint, "staticHeaders">): Record<string, string> {
  return Object.fromEntries(Object.entries(endpoint.staticHeaders ?? {}).filter(([name]) => !isServiceHeader(name)));
}
