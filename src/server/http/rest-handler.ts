import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Span } from "@opentelemetry/api";
import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { getDb } from "../db/client";
import { type AppError, errors, GATEWAY_MESSAGES } from "../errors";
import { logger } from "../log";
import { observeHttpRequest, routeTemplate } from "../observability/metrics";
import { describeRequest, inRequestSpan, tracingOn } from "../observability/tracing";
import { toAppError } from "../to-app-error";
import type { Context, RateLimitState, RestState } from "../trpc/context";
import type { Meta } from "../trpc/init";
import { MAX_BODY_BYTES } from "./body-limit";
import { restAnswerOf } from "./error-wire";
import type { InputErrorStyle } from "./input-errors";
import { lingerAfterAnswer } from "./linger";
import { isDecodablePath, MALFORMED_PATH } from "./malformed-path";
import { routeTemplatesOf } from "./route-templates";

export { MAX_BODY_BYTES };

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
export function createRestGateway(router: AnyRouter, prefix: `/${string}`): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const handle = restCore(router, prefix);
  return async (req, res) => {
    const answer = await handle({
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: nodeHeaders(req),
      text: () => readNodeBody(req),
      whenGone: (listener) => {
        if (req.socket.destroyed) {
          listener();
          return () => {};
        }
        // `close` comes once the answer is written too: only before that does it mean the caller left.
        const onClose = () => {
          if (!res.writableEnded) listener();
        };
        res.once("close", onClose);
        return () => res.off("close", onClose);
      },
    });
    if (res.destroyed || req.socket.destroyed) return;
    const bytes = answer.body === null ? undefined : Buffer.from(answer.body);
    // A body refused unread (too large) is not read whole: the connection closes after the answer,
    // draining what the caller still sends so that it reads the 413 (the door may have set this already).
    if (answer.status === 413) lingerAfterAnswer(req, res);
    res.writeHead(answer.status, bytes ? { ...answer.headers, "content-length": String(bytes.length) } : answer.headers);
    res.end(req.method === "HEAD" ? undefined : bytes);
  };
}

/** What the core reads of a request. */
type RestRequest = {
  method: string;
  /** Absolute (`http://host/api/x?y`) or origin-form (`/api/x?y`). */
  url: string;
  headers: HeaderReader;
  /** The body as UTF-8 text (a leading byte-order mark dropped, as `Request.text()` does). */
  text: () => Promise<string>;
  /** Subscribes to the caller going away before the answer (`RestState.whenCallerGone`). */
  whenGone?: (listener: () => void) => () => void;
};
type RestAnswer = { status: number; headers: Record<string, string>; body: string | null };

function restCore(router: AnyRouter, prefix: `/${string}`): (request: RestRequest) => Promise<RestAnswer> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  // Built once per gateway (docs/decisions.md, "Performance: API throughput"): trpc-to-openapi's fetch handler rebuilt this, its
  // route table (a RegExp per route) included, on every request. Per-request state reaches the
  // hooks through the request object the adapter hands them.
  const adapter = createOpenApiNodeHttpHandler({
    router,
    createContext: async ({ req }: { req: AdapterRequest }) => contextOf(await getDb(), req[STATE]),
    responseMeta: ({ errors: failures, ctx, paths }: { errors: unknown[]; ctx?: Context; paths?: string[] }) => {
      if (ctx?.rest) ctx.rest.procedure = paths?.[0];
      return failures.length === 0 && ctx?.rest?.status ? { status: ctx.rest.status } : {};
    },
    onError: ({ error, path, req }: { error: Error & { code?: string }; path?: string; req: AdapterRequest }) => {
      const state = req[STATE];
      state.procedure = path;
      // Must not throw: the adapter would then never answer.
      try {
        state.error = failureOf(error, state, path ? procedures[path]?._def.meta?.inputErrors : undefined);
      } catch {
        state.error = errors.internal();
      }
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]) as unknown as (req: AdapterRequest, res: AdapterResponse) => Promise<void>;

  const routeOf = routeTemplatesOf(router);
  // Traces on: the request's span, named by its route template (docs/decisions.md, Traces).
  return (request) => (tracingOn() ? inRequestSpan(request.method.toUpperCase(), request.headers, (span) => answerOf(request, span)) : answerOf(request));

  async function answerOf(request: RestRequest, span?: Span): Promise<RestAnswer> {
    const started = performance.now();
    const { pathname, search } = splitUrl(request.url);
    const state: RestState = {
      requestId: validRequestId(request.headers.get("x-request-id")) ?? randomUUID(),
      method: request.method.toUpperCase(),
      pathWithQuery: pathname + search,
      headers: request.headers,
      rawBody: "",
      whenCallerGone: request.whenGone,
    };
    let answer: { status: number; body: string | null; headers?: Record<string, string> };
    try {
      // Before any route decodes it (decisions: Requests and errors), as on every other path of the door.
      if (!isDecodablePath(pathname)) throw errors.badRequest(MALFORMED_PATH);
      const body = await innerBody(request, state);
      const adapted = await new Promise<{ status: number; body: string | undefined }>((resolve) => {
        // The adapter sets only `Content-Type: application/json` (responseMeta sets no headers).
        const res: AdapterResponse = {
          statusCode: 200,
          setHeader: () => {},
          end: (text) => resolve({ status: res.statusCode, body: text }),
        };
        adapter(adapterRequest(state, routePath(pathname, prefix) + search, body), res).catch((error) => {
          state.error ??= failureOf(error, state);
          resolve({ status: 500, body: "" });
        });
      });
      answer = state.error ? errorAnswer(state.error) : { status: adapted.status, body: adapted.body ?? null };
    } catch (error) {
      answer = errorAnswer(failureOf(error, state));
    }
    // docs/decisions.md, "Partner developer: idempotency keys": a repeated key answers the kept
    // answer; a claimed key keeps this one (or is released) before the caller can retry.
    if (state.replay) {
      answer = { ...state.replay, headers: { ...state.replay.headers, "idempotent-replayed": "true" } };
    } else if (state.settle) {
      try {
        await state.settle({ status: answer.status, body: answer.body, headers: answer.headers ?? {} });
      } catch (error) {
        // The request's change is made: its answer stands; the claim lapses (its lock) and a retry takes it over.
        logger().error({ err: error, requestId: state.requestId }, "idempotency key not settled");
      }
    }
    // Dropped from the Partner API's queue unrun (docs/decisions.md, "A fair Partner API"): nobody reads
    // an answer; the log and the metrics say 499, as proxies name a request its client closed.
    if (state.callerGone) answer = { status: 499, body: null };
    // docs/decisions.md, "Partner developer: rate limits": on every answer of a counted request, a replay and a 429 included.
    else if (state.rateLimit) answer = { ...answer, headers: { ...answer.headers, ...rateLimitHeaders(state.rateLimit) } };
    logger().info(
      {
        requestId: state.requestId,
        method: state.method,
        path: pathname,
        status: answer.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        client: state.clientId,
      },
      "request",
    );
    observeHttpRequest(
      routeTemplate(prefix, state.procedure && procedures[state.procedure]?._def.meta?.openapi?.path),
      state.method,
      answer.status,
      (performance.now() - started) / 1000,
    );
    if (span) describeRequest(span, state.method, routeOf(state.method, routePath(pathname, prefix)), answer.status, state.requestId);
    return {
      status: answer.status,
      // Every answer names JSON, a body-less one (204) too, as the adapter's own answers do.
      headers: {
        "content-type": "application/json",
        "x-request-id": state.requestId,
        "cache-control": "no-store",
        ...answer.headers,
      },
      body: answer.body,
    };
  }
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
async function innerBody(request: RestRequest, state: RestState): Promise<object | null> {
  if (!BODY_METHODS.has(state.method)) return null;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  state.rawBody = await request.text();
  if (Buffer.byteLength(state.rawBody) > MAX_BODY_BYTES) throw tooLarge();
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

const tooLarge = () => errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);

/** Reads the header a request names, as `Headers.get` does. */
export type HeaderReader = { get(name: string): string | null };

/**
 * Node's parsed headers read as `Headers` reads them: lower-case names, repeated values joined
 * with ", " (Node already keeps only the first of a repeated `Authorization`, `Content-Type`,
 * `Content-Length`, as the web `Request` Next.js builds from them does).
 */
function nodeHeaders(req: IncomingMessage): HeaderReader {
  return {
    get: (name) => {
      const value = req.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** One TextDecoder, as `Request.text()` decodes: UTF-8, a leading BOM dropped, bad bytes replaced. */
const UTF8 = new TextDecoder();

/**
 * The body of a Node request as text. More than MAX_BODY_BYTES stops the read with a 413: a sender
 * cannot make the process hold more than the limit.
 */
function readNodeBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      if (error) reject(error);
      else resolve(UTF8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        done(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = (error: Error) => done(errors.badRequest(`Request body could not be read: ${error.message}`));
    const onClose = () => {
      if (!req.complete) done(errors.badRequest("Request body ended early"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** The path and query of an absolute or origin-form URL, parsed as the WHATWG URL parser does (as a web `Request` would have it). */
function splitUrl(url: string): { pathname: string; search: string } {
  const parsed = new URL(url, "http://localhost");
  return { pathname: parsed.pathname, search: parsed.search };
}

/**
 * What a failed request answers: the AppError of whatever was thrown (`toAppError`), an input
 * validation failure in the route's declared shape. An internal error is logged here, once, with
 * its cause; its answer never carries the cause's text.
 */
function failureOf(error: unknown, state: RestState, inputErrors?: InputErrorStyle): AppError {
  const failure = toAppError(error, inputErrors);
  if (failure.kind === "internal") logger().error({ err: error, cause: (error as { cause?: unknown }).cause, requestId: state.requestId }, "unhandled error");
  return failure;
}

function errorAnswer(error: AppError): { status: number; body: string; headers?: Record<string, string> } {
  const answer = restAnswerOf(error);
  return { status: answer.status, body: JSON.stringify(answer.body), ...(answer.headers ? { headers: answer.headers } : {}) };
}

function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "ratelimit-limit": String(state.limit),
    "ratelimit-remaining": String(state.remaining),
    "ratelimit-reset": String(state.resetSeconds),
  };
}

function validRequestId(value: string | null): string | undefined {
  return value && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined;
}
