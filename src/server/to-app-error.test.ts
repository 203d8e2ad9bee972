import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, type ErrorKind, errors, STATUS_OF_KIND, toTRPCError, trpcCodeOf } from "./errors";
import { toAppError } from "./to-app-error";

/** tRPC's input validation failure, as its procedure builder throws it. */
function inputFailure(schema: z.ZodType, value: unknown): TRPCError {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("the sample must fail");
  return new TRPCError({ code: "BAD_REQUEST", cause: parsed.error });
}

const owner = z.object({ name: z.string(), phone: z.string().regex(/^\d{10}$/, "must be 10 digits") });
const conflict = errors.conflict("Policy is already canceled");
const postgresGone = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", syscall: "connect" });

/** Each kind of thrown value, the kind and status every surface gives it, and the message it carries. */
const TABLE: { thrown: string; error: unknown; kind: ErrorKind; status: number; message: string }[] = [
  { thrown: "a feature's AppError", error: conflict, kind: "conflict", status: 409, message: "Policy is already canceled" },
  {
    thrown: "an AppError tRPC wrapped as INTERNAL_SERVER_ERROR",
    error: new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: conflict }),
    kind: "conflict",
    status: 409,
    message: "Policy is already canceled",
  },
  { thrown: "an AppError a builder threw", error: toTRPCError(errors.gatewayForbidden()), kind: "scope_missing", status: 403, message: "Forbidden" },
  {
    thrown: "PostgreSQL shutting down",
    error: new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: postgresGone }),
    kind: "unavailable",
    status: 503,
    message: "Service temporarily unavailable; retry shortly",
  },
  { thrown: "the database refusing connections", error: refused, kind: "unavailable", status: 503, message: "Service temporarily unavailable; retry shortly" },
  { thrown: "tRPC's input validation", error: inputFailure(owner, { name: 1 }), kind: "invalid", status: 422, message: "Request is invalid" },
  { thrown: "a ZodError from a feature's own check", error: owner.safeParse({}).error, kind: "invalid", status: 422, message: "Request is invalid" },
  {
    thrown: "tRPC's unreadable input (PARSE_ERROR)",
    error: new TRPCError({ code: "PARSE_ERROR", message: "Unable to parse input" }),
    kind: "bad_request",
    status: 400,
    message: "Unable to parse input",
  },
  {
    thrown: "tRPC's BAD_REQUEST",
    error: new TRPCError({ code: "BAD_REQUEST", message: "Batching is not enabled" }),
    kind: "bad_request",
    status: 400,
    message: "Batching is not enabled",
  },
  {
    thrown: "a method the procedure does not take",
    error: new TRPCError({ code: "METHOD_NOT_SUPPORTED", message: "Unsupported GET-request to mutation procedure" }),
    kind: "bad_request",
    status: 400,
    message: "Unsupported GET-request to mutation procedure",
  },
  {
    thrown: "an unknown route or procedure",
    error: new TRPCError({ code: "NOT_FOUND", message: 'No procedure found on path "x"' }),
    kind: "not_found",
    status: 404,
    message: "Not found",
  },
  {
    thrown: "a wrong media type",
    error: new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: 'Unsupported content-type "text/plain' }),
    kind: "unsupported_media_type",
    status: 415,
    message: "Content-Type must be application/json",
  },
  {
    thrown: "a body over the adapter's limit",
    error: new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: "Request body too large" }),
    kind: "payload_too_large",
    status: 413,
    message: "Request body too large",
  },
  { thrown: "tRPC's UNAUTHORIZED", error: new TRPCError({ code: "UNAUTHORIZED" }), kind: "unauthenticated", status: 401, message: "Unauthorized" },
  { thrown: "a plain Error", error: new Error("password=hunter2 rejected by 10.0.0.5"), kind: "internal", status: 500, message: "Internal server error" },
  {
    thrown: "an unexpected error tRPC wrapped",
    error: new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: new TypeError("x is undefined") }),
    kind: "internal",
    status: 500,
    message: "Internal server error",
  },
  { thrown: "a string", error: "boom", kind: "internal", status: 500, message: "Internal server error" },
];

describe("toAppError: anything thrown becomes one AppError", () => {
  it.each(TABLE)("$thrown → $kind ($status)", ({ error, kind, status, message }) => {
    const failure = toAppError(error);
    expect(failure).toBeInstanceOf(AppError);
    expect({ kind: failure.kind, status: failure.status, message: failure.message }).toEqual({ kind, status, message });
  });

  it("returns a feature's AppError itself, and keeps an unexpected value as the cause to log", () => {
    expect(toAppError(conflict)).toBe(conflict);
    const unexpected = new Error("boom");
    expect(toAppError(unexpected).cause).toBe(unexpected);
    expect(toAppError(refused).retryAfterSeconds).toBe(5);
  });

  it("names the fields of an input failure, in the shape the route declares", () => {
    const failure = inputFailure(owner, { name: 1, phone: "12" });
    expect(toAppError(failure).fields).toEqual({ name: [expect.any(String)], phone: ["must be 10 digits"] });
    const resource = toAppError(failure, { kind: "resource", key: "prospect", error: "Prospect is invalid" });
    expect({ kind: resource.kind, resource: resource.resource, message: resource.message }).toEqual({
      kind: "invalid",
      resource: "prospect",
      message: "Prospect is invalid",
    });
    const oauth = toAppError(failure, { kind: "oauth" });
    expect({ kind: oauth.kind, status: oauth.status, oauthCode: oauth.oauthCode }).toEqual({
      kind: "oauth_invalid",
      status: 400,
      oauthCode: "invalid_request",
    });
  });

  it("gives every kind a tRPC code that comes back to the same status", () => {
    for (const kind of Object.keys(STATUS_OF_KIND) as ErrorKind[]) {
      const code = trpcCodeOf(new AppError(kind, "m"));
      expect([kind, toAppError(new TRPCError({ code })).status]).toEqual([kind, STATUS_OF_KIND[kind]]);
    }
  });
});
