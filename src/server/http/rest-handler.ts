import { randomUUID } from "node:crypto";
import type { AnyRouter } from "@trpc/server";
import { createOpenApiFetchHandler } from "trpc-to-openapi";
import { getDb } from "../db/client";
import { type AppError, appErrorOf, errors, GATEWAY_MESSAGES } from "../errors";
import { logger } from "../log";
import type { Context, RestState } from "../trpc/context";
import type { Meta } from "../trpc/init";
import { restAnswerOf } from "./error-wire";
import { inputErrorFor, isInputValidationError } from "./input-errors";

/** Largest accepted request body: 500 onboarding items with generous fields fit well within it. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * The one adapter between HTTP and the tRPC router for a gateway (style §2: never a hand-written
 * REST route beside the router). trpc-to-openapi's fetch handler matches the route, validates and
 * calls the procedure, through its documented options only; this wrapper:
 * - reads the body once (raw bytes are needed for request signatures) and hands the adapter a new
 *   `Request` whose body is a bare JSON array wrapped as `{items}` (stack notes);
 * - defers media-type and JSON problems until the caller is authenticated (the adapter would answer
 *   them first): the new `Request` always carries well-formed JSON;
 * - answers the specification's exact error bodies, decided in `onError`, in place of the adapter's;
 * - sets the success status a procedure chose (201, 202) through `responseMeta`;
 * - adds `X-Request-Id` and `Cache-Control: no-store`, and writes one access-log line.
 * JSON bodies are never coerced (`"yes"` is not a boolean): see `./json-body.ts`.
 */
export function createRestHandler(router: AnyRouter, prefix: `/${string}`): (req: Request) => Promise<Response> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;

  return async (request: Request): Promise<Response> => {
    const started = performance.now();
    const url = new URL(request.url);
    const state: RestState = {
      requestId: validRequestId(request.headers.get("x-request-id")) ?? randomUUID(),
      method: request.method.toUpperCase(),
      pathWithQuery: url.pathname + url.search,
      headers: request.headers,
      rawBody: "",
    };
    let response: Response;
    try {
      const inner = new Request(`http://gateway.internal${url.pathname}${url.search}`, {
        method: state.method,
        headers: innerHeaders(request.headers, state.method),
        body: await innerBody(request, state),
        // No `signal`: nothing downstream watches for the caller going away, and following the
        // outer request's signal cost every request a linked AbortSignal (issue 9 item 16).
      });
      // trpc-to-openapi 3.3.0 builds its handler per call; outside production that also validates
      // the router by generating the document (about 10 ms a request in tests), never in production.
      response = await createOpenApiFetchHandler({
        req: inner,
        endpoint: prefix,
        router,
        createContext: async (): Promise<Context> => ({
          db: await getDb(),
          log: logger().child({ requestId: state.requestId }),
          requestId: state.requestId,
          rest: state,
        }),
        responseMeta: ({ errors: failures }) => (failures.length === 0 && state.status ? { status: state.status } : {}),
        onError: ({ error, path }) => {
          // Must not throw: the adapter would then never answer.
          try {
            state.error = answerFor(error, path ? procedures[path]?._def.meta : undefined, state);
          } catch {
            state.error = errors.internal();
          }
        },
      });
      if (state.error) response = errorResponse(state.error);
    } catch (error) {
      const known = appErrorOf(error);
      if (!known) logger().error({ err: error, requestId: state.requestId }, "request failed");
      response = errorResponse(known ?? errors.internal(error));
    }
    response.headers.set("X-Request-Id", state.requestId);
    response.headers.set("Cache-Control", "no-store");
    logger().info(
      {
        requestId: state.requestId,
        method: state.method,
        path: url.pathname,
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        client: state.clientId,
      },
      "request",
    );
    return response;
  };
}

/** The adapter checks the media type itself before authentication: it always sees JSON here. */
function innerHeaders(headers: Headers, method: string): Headers {
  const inner = new Headers(headers);
  inner.delete("content-length");
  if (BODY_METHODS.has(method)) inner.set("content-type", "application/json");
  else inner.delete("content-type");
  return inner;
}

/**
 * Reads the body once and returns the JSON text the adapter will parse: an object body as sent, a
 * bare array as `{"items": …}`, and `{}` for an empty body, a non-object JSON value, or a body with a
 * problem (wrong media type, bad JSON), which `state.bodyProblem` keeps for after authentication.
 */
async function innerBody(request: Request, state: RestState): Promise<string | undefined> {
  if (!BODY_METHODS.has(state.method)) return undefined;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  state.rawBody = await request.text();
  if (Buffer.byteLength(state.rawBody) > MAX_BODY_BYTES) throw errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (state.rawBody.trim() === "") return "{}";
  // spec Token exchange 4: `Content-Type: application/json` is required on requests with a body.
  const mediaType = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    state.bodyProblem = errors.unsupportedMediaType();
    return "{}";
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(state.rawBody);
  } catch {
    state.bodyProblem = errors.badRequest(GATEWAY_MESSAGES.invalidJson);
    return "{}";
  }
  if (Array.isArray(parsed)) return `{"items":${state.rawBody}}`;
  return typeof parsed === "object" && parsed !== null ? state.rawBody : "{}";
}

function answerFor(error: Error & { code?: string }, meta: Meta | undefined, state: RestState): AppError {
  const known = appErrorOf(error);
  if (known) return known;
  if (isInputValidationError(error)) return inputErrorFor(meta?.inputErrors, error.cause);
  switch (error.code) {
    case "NOT_FOUND":
      return errors.notFound();
    default:
      logger().error({ err: error, cause: error.cause, requestId: state.requestId }, "unhandled error");
      return errors.internal();
  }
}

function errorResponse(error: AppError): Response {
  const answer = restAnswerOf(error);
  return jsonResponse(answer.status, answer.body);
}

export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set("Content-Type", "application/json");
  return response;
}

function validRequestId(value: string | null): string | undefined {
  return value && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined;
}
