import { type AppError, type ErrorKind, flattenFieldErrors, GATEWAY_MESSAGES, STATUS_OF_KIND } from "../errors";
import type { InputErrorStyle } from "./input-errors";

/**
 * How the REST gateways put an `AppError` on the wire: one table, read both to answer a request and
 * to document the error responses of every route in the OpenAPI document. Bodies: the
 * specification's where it states them (gateway 401/403, token exchange, the 422 shapes), else
 * decisions §7 `{status_code, error}`.
 */
type Json = Record<string, unknown>;
/** Which routes can answer a kind: the token exchange has OAuth bodies, every other route the API's. */
type RouteKind = "token" | "api";

type WireKind = {
  routes: RouteKind[];
  description: string;
  body: (error: AppError) => Json;
  schema: (inputErrors: InputErrorStyle | undefined) => Json;
};

const plain = (error: AppError): Json => ({ status_code: error.status, error: error.message });
const plainSchema = (status: number, example: string) => (): Json => ({
  type: "object",
  properties: { status_code: { type: "integer", const: status }, error: { type: "string" } },
  required: ["status_code", "error"],
  example: { status_code: status, error: example },
});
const gatewaySchema = (message: string) => (): Json => ({
  type: "object",
  properties: { message: { type: "string", const: message } },
  required: ["message"],
  additionalProperties: false,
  example: { message },
});
const oauthSchema = (example: Json) => (): Json => ({
  type: "object",
  properties: { error: { type: "string" }, error_description: { type: "string" } },
  required: ["error", "error_description"],
  example,
});

const WIRE: Record<ErrorKind, WireKind> = {
  unauthenticated: {
    routes: ["api"],
    description: "Token missing, expired or invalid (gateway)",
    body: () => ({ message: GATEWAY_MESSAGES.unauthorized }),
    schema: gatewaySchema(GATEWAY_MESSAGES.unauthorized),
  },
  scope_missing: {
    routes: ["api"],
    description: "Token scopes do not cover the route (gateway)",
    body: () => ({ message: GATEWAY_MESSAGES.forbidden }),
    schema: gatewaySchema(GATEWAY_MESSAGES.forbidden),
  },
  access_denied: {
    routes: ["token"],
    description: "Credentials rejected",
    body: () => ({ error: "access_denied", error_description: GATEWAY_MESSAGES.unauthorized }),
    schema: oauthSchema({ error: "access_denied", error_description: GATEWAY_MESSAGES.unauthorized }),
  },
  oauth_invalid: {
    routes: ["token"],
    description: "Malformed request, unsupported grant type or scope",
    body: (error) => ({ error: error.oauthCode ?? "invalid_request", error_description: error.message }),
    schema: oauthSchema({ error: "invalid_request", error_description: "client_id is required" }),
  },
  invalid_signature: {
    routes: ["api"],
    description: "Request signature missing, malformed, wrong or older than five minutes",
    body: plain,
    schema: plainSchema(401, GATEWAY_MESSAGES.invalidSignature),
  },
  not_found: { routes: ["api"], description: "Unknown owner slug or resource", body: plain, schema: plainSchema(404, "Property owner not found") },
  forbidden: {
    routes: ["api"],
    description: "The client is not granted this owner",
    body: plain,
    schema: plainSchema(403, "Client is not authorized for this property owner"),
  },
  conflict: {
    routes: ["api"],
    description: "Conflict (on a POST: a request with the same `Idempotency-Key` is still in flight)",
    body: plain,
    schema: plainSchema(409, "external_org_id belongs to a property owner managed directly by the service"),
  },
  bad_request: { routes: ["api", "token"], description: "Malformed request body", body: plain, schema: plainSchema(400, GATEWAY_MESSAGES.invalidJson) },
  payload_too_large: {
    routes: ["api", "token"],
    description: "Request body too large",
    body: plain,
    schema: plainSchema(413, "Request body exceeds 5242880 bytes"),
  },
  unsupported_media_type: {
    routes: ["api", "token"],
    description: "Body without Content-Type: application/json",
    body: plain,
    schema: plainSchema(415, GATEWAY_MESSAGES.mediaType),
  },
  invalid: { routes: ["api"], description: "Validation failure", body: invalidBody, schema: invalidSchema },
  idempotency_key_reused: {
    routes: ["api"],
    description: "The `Idempotency-Key` was used with another request (method, path or body)",
    body: plain,
    schema: plainSchema(422, "Idempotency-Key was used with another request"),
  },
  too_many_requests: {
    routes: ["api", "token"],
    description: "Too many requests (the client's request limit, or a delivered delivery retried within a minute); `Retry-After` gives the seconds to wait",
    body: plain,
    schema: plainSchema(429, "Too many requests for this client: retry after the seconds Retry-After gives"),
  },
  unavailable: { routes: ["api", "token"], description: "Temporarily unavailable; retry later", body: plain, schema: plainSchema(503, "Try again shortly") },
  internal: { routes: ["api", "token"], description: "Internal error", body: plain, schema: plainSchema(500, GATEWAY_MESSAGES.internal) },
};

/** The answer to a failed REST request, with the headers it needs (`Retry-After`). */
export function restAnswerOf(error: AppError): { status: number; body: Json; headers?: Record<string, string> } {
  const headers = error.retryAfterSeconds === undefined ? undefined : { "retry-after": String(error.retryAfterSeconds) };
  return { status: error.status, body: WIRE[error.kind].body(error), ...(headers ? { headers } : {}) };
}

/** spec Errors, Body shapes: the resource-keyed 422 (prospects, move-outs) or the field-keyed one (onboarding). */
function invalidBody(error: AppError): Json {
  if (error.resource) return { status_code: 422, error: error.message, [error.resource]: { ...flattenFieldErrors(error.fields), ...error.nested } };
  return { status_code: 422, error: error.message, errors: error.fields ?? {} };
}

function invalidSchema(style: InputErrorStyle | undefined): Json {
  if (style?.kind === "resource") {
    return {
      type: "object",
      properties: {
        status_code: { type: "integer", const: 422 },
        error: { type: "string" },
        [style.key]: { type: "object", description: "Attribute name to message (a failed nested item: its own field errors)" },
      },
      required: ["status_code", "error", style.key],
      example: { status_code: 422, error: style.error, [style.key]: { external_id: "can't be blank" } },
    };
  }
  return {
    type: "object",
    properties: {
      status_code: { type: "integer", const: 422 },
      error: { type: "string" },
      errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, description: "Field name to messages" },
    },
    required: ["status_code", "error", "errors"],
    example: { status_code: 422, error: style?.kind === "fields" ? style.error : GATEWAY_MESSAGES.requestInvalid, errors: { name: ["is required"] } },
  };
}

/** The OpenAPI response for `status` on a route: every kind of that status the route can answer. */
export function openApiErrorResponse(status: number, inputErrors: InputErrorStyle | undefined): Json {
  const route: RouteKind = inputErrors?.kind === "oauth" ? "token" : "api";
  const kinds = (Object.keys(WIRE) as ErrorKind[]).filter((kind) => STATUS_OF_KIND[kind] === status && WIRE[kind].routes.includes(route));
  if (kinds.length === 0) throw new Error(`No error kind answers ${status} on a ${route} route`);
  const schemas = kinds.map((kind) => WIRE[kind].schema(inputErrors));
  return {
    description: kinds.map((kind) => WIRE[kind].description).join("; or "),
    ...(kinds.includes("too_many_requests")
      ? { headers: { "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 1 } } } }
      : {}),
    content: { "application/json": { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } } },
  };
}
