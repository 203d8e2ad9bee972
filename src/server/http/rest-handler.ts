import { randomUUID } from "node:crypto";
import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
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
 * REST route beside the router). trpc-to-openapi's node handler, built once, matches the route,
 * validates and calls the procedure, through its documented options only; this wrapper:
 * - reads and parses the body once (the raw text is kept for request signatures) and hands the
 *   adapter the parsed body, a bare JSON array wrapped as `{items}` (stack notes);
 * - defers media-type and JSON problems until the caller is authenticated (the adapter would answer
 *   them first): the adapter always sees a JSON object;
 * - answers the specification's exact error bodies, decided in `onError`, in place of the adapter's;
 * - sets the success status a procedure chose (201, 202) through `responseMeta`;
 * - adds `X-Request-Id` and `Cache-Control: no-store`, and writes one access-log line.
 * JSON bodies are never coerced (`"yes"` is not a boolean): see `./json-body.ts`.
 */
export function createRestHandler(router: AnyRouter, prefix: `/${string}`): (req: Request) => Promise<Response> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  // Built once per gateway (issue 9 item 16): trpc-to-openapi's fetch handler rebuilt this, its
  // route table (a RegExp per route) included, on every request. Per-request state reaches the
  // hooks through the request object the adapter hands them.
  const adapter = createOpenApiNodeHttpHandler({
    router,
    createContext: async ({ req }: { req: AdapterRequest }) => contextOf(await getDb(), req[STATE]),
    responseMeta: ({ errors: failures, ctx }: { errors: unknown[]; ctx?: Context }) =>
      failures.length === 0 && ctx?.rest?.status ? { status: ctx.rest.status } : {},
    onError: ({ error, path, req }: { error: Error & { code?: string }; path?: string; req: AdapterRequest }) => {
      const state = req[STATE];
      // Must not throw: the adapter would then never answer.
      try {
        state.error = answerFor(error, path ? procedures[path]?._def.meta : undefined, state);
      } catch {
        state.error = errors.internal();
      }
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]) as unknown as (req: AdapterRequest, res: AdapterResponse) => Promise<void>;

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
      const body = await innerBody(request, state);
      const answer = await new Promise<{ status: number; body: string | undefined }>((resolve) => {
        // The adapter sets only `Content-Type: application/json` (responseMeta sets no headers).
        const res: AdapterResponse = {
          statusCode: 200,
          setHeader: () => {},
          end: (text) => resolve({ status: res.statusCode, body: text }),
        };
        adapter(adapterRequest(state, routePath(url.pathname, prefix) + url.search, body), res).catch((error) => {
          state.error ??= appErrorOf(error) ?? errors.internal(error);
          resolve({ status: 500, body: "" });
        });
      });
      response = state.error ? errorResponse(state.error) : jsonTextResponse(answer.status, answer.body);
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

const STATE = Symbol("rest state");

/** What trpc-to-openapi's handler reads of a request: a `Request` (so it takes the signal and content type from it, not a Node message) with the body already parsed. */
type AdapterRequest = Request & { [STATE]: RestState };
type AdapterResponse = { statusCode: number; setHeader: (name: string, value: string | string[]) => void; end: (body?: string) => void };

/** The adapter checks the media type itself, before authentication: it always sees JSON on a body method. */
const JSON_HEADERS = new Headers({ "content-type": "application/json" });
const NO_HEADERS = new Headers();
/** Nothing downstream watches for the caller going away (a linked signal cost every request). */
const NEVER_ABORTED = new AbortController().signal;

/**
 * The request as the adapter sees it, without building a second `Request`: an object of the
 * `Request` prototype whose own fields shadow the accessors the adapter uses (method, url,
 * headers, signal, and body as the parsed JSON, as its fetch adapter's proxy hands it). Guarded by
 * the REST suites (rest-adapter, auth, openapi, fuzz): they drive every route through this.
 */
function adapterRequest(state: RestState, pathWithQuery: string, body: object | null): AdapterRequest {
  const req = Object.create(Request.prototype) as AdapterRequest;
  const fields: PropertyDescriptorMap = {
    method: { value: state.method },
    url: { value: pathWithQuery },
    headers: { value: BODY_METHODS.has(state.method) ? JSON_HEADERS : NO_HEADERS },
    signal: { value: NEVER_ABORTED },
    // Read on body methods only; the adapter sets `query` itself on the others.
    body: { value: body },
    [STATE]: { value: state },
  };
  return Object.defineProperties(req, fields) as AdapterRequest;
}

/** The route's path below the gateway's prefix (`/api/partners/x` → `/partners/x`). */
function routePath(pathname: string, prefix: string): string {
  return (pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname) || "/";
}

/** The procedures' context; `log` is made on first use (no procedure of the hot path logs). */
function contextOf(db: Context["db"], state: RestState): Context {
  let log: Context["log"] | undefined;
  return {
    db,
    get log() {
      log ??= logger().child({ requestId: state.requestId });
      return log;
    },
    requestId: state.requestId,
    rest: state,
  };
}

/**
 * Reads and parses the body once and returns the input the adapter takes: an object body as sent, a
 * bare array as `{items: …}`, and `{}` for an empty body, a non-object JSON value, or a body with a
 * problem (wrong media type, bad JSON), which `state.bodyProblem` keeps for after authentication.
 */
async function innerBody(request: Request, state: RestState): Promise<object | null> {
  if (!BODY_METHODS.has(state.method)) return null;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  state.rawBody = await request.text();
  if (Buffer.byteLength(state.rawBody) > MAX_BODY_BYTES) throw errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (state.rawBody.trim() === "") return {};
  // spec Token exchange 4: `Content-Type: application/json` is required on requests with a body.
  const mediaType = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    state.bodyProblem = errors.unsupportedMediaType();
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(state.rawBody);
  } catch {
    state.bodyProblem = errors.badRequest(GATEWAY_MESSAGES.invalidJson);
    return {};
  }
  if (Array.isArray(parsed)) return { items: parsed };
  return typeof parsed === "object" && parsed !== null ? parsed : {};
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

/** A JSON text the adapter serialized (none for an undefined result or a 204). */
function jsonTextResponse(status: number, text: string | undefined): Response {
  return new Response(text ?? null, { status, headers: { "Content-Type": "application/json" } });
}

export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set("Content-Type", "application/json");
  return response;
}

function validRequestId(value: string | null): string | undefined {
  return value && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined;
}
