import { TRPCError } from "@trpc/server";

/**
 * Every error a partner can see, in one place. Domain code throws these; the REST layer answers
 * `status` with `body` exactly, and tRPC callers (the console) get the matching tRPC code.
 *
 * Bodies: the specification's where it states them, else decisions §7 `{status_code, error}`.
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>, message?: string) {
    super(message ?? String(body.error ?? body.message ?? body.error_description ?? `HTTP ${status}`));
    this.name = "AppError";
    this.status = status;
    this.body = body;
  }
}

const plain = (status: number, error: string) => new AppError(status, { status_code: status, error });

export const errors = {
  /** Gateway authentication failure: body exactly `{message: "Unauthorized"}` (spec Token exchange 6). */
  gatewayUnauthorized: () => new AppError(401, { message: "Unauthorized" }),
  /** Gateway scope failure: body exactly `{message: "Forbidden"}` (spec Token exchange 7). */
  gatewayForbidden: () => new AppError(403, { message: "Forbidden" }),
  /** Token exchange rejection (spec Token exchange 5). */
  accessDenied: () => new AppError(401, { error: "access_denied", error_description: "Unauthorized" }),
  oauth: (status: number, error: string, description: string) => new AppError(status, { error, error_description: description }),
  invalidSignature: () => plain(401, "Invalid request signature"),
  notFound: (what = "Not found") => plain(404, what),
  forbidden: (why: string) => plain(403, why),
  conflict: (why: string) => plain(409, why),
  badRequest: (why: string) => plain(400, why),
  unsupportedMediaType: () => plain(415, "Content-Type must be application/json"),
  payloadTooLarge: (why: string) => plain(413, why),
  /** 422 with field-level errors (onboarding, owner creation). */
  invalidFields: (error: string, fields: FieldErrors) => new AppError(422, { status_code: 422, error, errors: fields }),
  /** 422 in the spec's resource-keyed shape, e.g. `{status_code, error, prospect: {attr: message}}`. */
  invalidResource: (error: string, key: string, fields: Record<string, unknown>) => new AppError(422, { status_code: 422, error, [key]: fields }),
  internal: () => plain(500, "Internal server error"),
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
};

/** Throwable inside a procedure: tRPC keeps the AppError as `cause`, the REST layer answers its body. */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_BY_STATUS[error.status] ?? "INTERNAL_SERVER_ERROR", message: error.message, cause: error });
}

export function appErrorOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof AppError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
