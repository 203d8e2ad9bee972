import { TRPCError } from "@trpc/server";

/**
 * The one error model (style §4). Domain code throws an `AppError`: a kind, a message (a constant of
 * the feature's `messages.ts` where partners match on it), and for `invalid` the field errors. Its
 * status is its kind's (`STATUS_OF_KIND`), on every surface. It never carries a wire body: each
 * surface turns whatever was thrown into an AppError with `toAppError` (`./to-app-error.ts`) and
 * renders it once, the REST gateways in `src/server/http/error-wire.ts` (the specification's bodies
 * and statuses, and the OpenAPI error responses from the same table), the console through tRPC's
 * `errorFormatter`, the CLI on stderr, the enrollment pages' actions on their form.
 */
export type FieldErrors = Record<string, string[]>;

/** Every kind of failure a caller can cause, with its HTTP status. */
export const STATUS_OF_KIND = {
  /** Gateway authentication failed (spec Token exchange 6). */
  unauthenticated: 401,
  /** The token's scopes do not cover the route (spec Token exchange 7). */
  scope_missing: 403,
  /** Token exchange credentials rejected (spec Token exchange 5). */
  access_denied: 401,
  /** Token exchange request refused with an OAuth error code (`invalid_request`, `invalid_scope`, …). */
  oauth_invalid: 400,
  /** Request signature missing, malformed, wrong or stale (decisions §6). */
  invalid_signature: 401,
  not_found: 404,
  /** Authenticated but not allowed (application-level 403). */
  forbidden: 403,
  conflict: 409,
  bad_request: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** Validation failure with field errors (422). */
  invalid: 422,
  /** An `Idempotency-Key` reused with another request (decisions §16): 422 `{status_code, error}`. */
  idempotency_key_reused: 422,
  /** Too many requests of one kind; the answer says when to try again (`Retry-After`). */
  too_many_requests: 429,
  /** Temporarily unable to serve; the caller should retry. */
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorKind = keyof typeof STATUS_OF_KIND;

type AppErrorOptions = {
  fields?: FieldErrors;
  /** For `invalid`: a nested item that failed, under its field (spec: a failed nested property or unit carries that item's `errors`). */
  nested?: Record<string, FieldErrors>;
  /** For `invalid`: the resource the specification keys its 422 body by (`prospect`, `move_out`). */
  resource?: string;
  /** For `oauth_invalid`: the OAuth error code. */
  oauthCode?: string;
  /** For `too_many_requests`: whole seconds until the request may succeed (`Retry-After`). */
  retryAfterSeconds?: number;
  cause?: unknown;
};

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly fields?: FieldErrors;
  readonly nested?: Record<string, FieldErrors>;
  readonly resource?: string;
  readonly oauthCode?: string;
  readonly retryAfterSeconds?: number;

  constructor(kind: ErrorKind, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.kind = kind;
    this.fields = options.fields;
    this.nested = options.nested;
    this.resource = options.resource;
    this.oauthCode = options.oauthCode;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return STATUS_OF_KIND[this.kind];
  }
}

/** Message constants of the gateways themselves; features keep theirs in their `messages.ts`. */
export const GATEWAY_MESSAGES = {
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  invalidSignature: "Invalid request signature",
  notFound: "Not found",
  invalidJson: "Request body is not valid JSON",
  mediaType: "Content-Type must be application/json",
  requestInvalid: "Request is invalid",
  internal: "Internal server error",
  databaseUnavailable: "Service temporarily unavailable; retry shortly",
} as const;

/** `Retry-After` of a 503 answered while the database is out of reach (docs/decisions.md "Faults, proven"). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const errors = {
  gatewayUnauthorized: () => new AppError("unauthenticated", GATEWAY_MESSAGES.unauthorized),
  gatewayForbidden: () => new AppError("scope_missing", GATEWAY_MESSAGES.forbidden),
  accessDenied: () => new AppError("access_denied", GATEWAY_MESSAGES.unauthorized),
  oauth: (code: string, description: string) => new AppError("oauth_invalid", description, { oauthCode: code }),
  invalidSignature: () => new AppError("invalid_signature", GATEWAY_MESSAGES.invalidSignature),
  notFound: (what: string = GATEWAY_MESSAGES.notFound) => new AppError("not_found", what),
  forbidden: (why: string) => new AppError("forbidden", why),
  conflict: (why: string) => new AppError("conflict", why),
  idempotencyKeyReused: (why: string) => new AppError("idempotency_key_reused", why),
  badRequest: (why: string) => new AppError("bad_request", why),
  unsupportedMediaType: () => new AppError("unsupported_media_type", GATEWAY_MESSAGES.mediaType),
  payloadTooLarge: (why: string) => new AppError("payload_too_large", why),
  /** 422 with field errors: `{status_code, error, errors: {field: [messages]}}` on the wire. */
  invalidFields: (error: string, fields: FieldErrors) => new AppError("invalid", error, { fields }),
  /** 422 keyed by resource: `{status_code, error, <resource>: {field: message}}` on the wire (spec Errors). */
  invalidResource: (error: string, resource: string, fields: FieldErrors) => new AppError("invalid", error, { fields, resource }),
  /** 422 keyed by resource whose field holds a failed nested item's own errors (`prospect.property`). */
  invalidNested: (error: string, resource: string, field: string, itemErrors: FieldErrors) =>
    new AppError("invalid", error, { resource, nested: { [field]: itemErrors } }),
  /** An operator's invalid command or input (CLI, console), one field or none. */
  invalid: (message: string, field?: string) => new AppError("invalid", message, { fields: field ? { [field]: [message] } : undefined }),
  /** 429 with `Retry-After: <seconds>` on the wire. */
  tooManyRequests: (why: string, retryAfterSeconds: number) =>
    new AppError("too_many_requests", why, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) }),
  unavailable: (why: string) => new AppError("unavailable", why),
  internal: (cause?: unknown) => new AppError("internal", GATEWAY_MESSAGES.internal, { cause }),
};

const TRPC_CODE_BY_STATUS: Record<number, TRPCError["code"]> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/** tRPC's code for an AppError: the one of its status (a caller's `code`, the console's HTTP status). */
export function trpcCodeOf(error: AppError): TRPCError["code"] {
  return TRPC_CODE_BY_STATUS[error.status] ?? "INTERNAL_SERVER_ERROR";
}

/** Throwable inside a procedure: tRPC keeps the AppError as `cause` for every surface to render. */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: trpcCodeOf(error), message: error.message, cause: error });
}

/**
 * tRPC's and trpc-to-openapi's own errors (an unknown route or procedure, a body or input they could
 * not read, a wrong method or media type) in the kind of the same status; a method a procedure does
 * not take is the caller's mistake, a bad request. A code not listed is internal.
 */
export const KIND_OF_TRPC_CODE: Partial<Record<TRPCError["code"], ErrorKind>> = {
  PARSE_ERROR: "bad_request",
  BAD_REQUEST: "bad_request",
  METHOD_NOT_SUPPORTED: "bad_request",
  UNAUTHORIZED: "unauthenticated",
  FORBIDDEN: "forbidden",
  NOT_FOUND: "not_found",
  CONFLICT: "conflict",
  PAYLOAD_TOO_LARGE: "payload_too_large",
  UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
  UNPROCESSABLE_CONTENT: "invalid",
  TOO_MANY_REQUESTS: "too_many_requests",
  SERVICE_UNAVAILABLE: "unavailable",
};

export function appErrorOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof AppError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return databaseUnavailableOf(error);
}

/**
 * Node's codes for a connection refused, cut or timed out, and postgres.js's own for its
 * connections (`CONNECT_TIMEOUT`, `CONNECTION_CLOSED`, …).
 */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

/**
 * The database out of reach (restarting, failing over, refusing connections) is the service's
 * temporary unavailability, not an internal error: 503 with `Retry-After` on every surface
 * (docs/decisions.md "Faults, proven"). PostgreSQL's own codes: class 08 (connection exception),
 * 57P01-57P03 (shutting down, crashed, starting up), 53300 (too many connections). A Unix socket
 * that is gone is ENOENT on `connect`.
 */
function databaseUnavailableOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, syscall } = current as { code?: unknown; syscall?: unknown };
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || (code === "ENOENT" && syscall === "connect") || /^08...$|^57P0[123]$|^53300$/.test(code))) {
      return new AppError("unavailable", GATEWAY_MESSAGES.databaseUnavailable, { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS, cause: error });
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Field errors flattened to one message each (the resource-keyed 422 shape, ingestion rejections). */
export function flattenFieldErrors(fields: FieldErrors | undefined): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [field, messages] of Object.entries(fields ?? {})) flat[field] = messages.join("; ");
  return flat;
}

/** Every message of an `invalid` error by field, a failed nested item's messages under its field. */
export function fieldMessagesOf(error: AppError): FieldErrors {
  const messages: FieldErrors = { ...error.fields };
  for (const [field, item] of Object.entries(error.nested ?? {})) messages[field] = [...(messages[field] ?? []), ...Object.values(item).flat()];
  return Object.keys(messages).length ? messages : { base: [error.message] };
}
