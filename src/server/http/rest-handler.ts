import { randomUUID } from "node:crypto";
import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler, getInputOutputParsers, unwrapZodType } from "trpc-to-openapi";
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

type NodeHandler = (req: unknown, res: unknown) => Promise<void>;

/**
 * The one adapter between HTTP and the tRPC router for a gateway (style §2: never a hand-written
 * REST route beside the router). trpc-to-openapi matches the route and validates; this wrapper:
 * - reads the body once (raw bytes are needed for request signatures) and turns a bare JSON array
 *   into `{items}` for routes whose body is an array (stack notes);
 * - defers media-type and JSON problems until the caller is authenticated;
 * - answers the specification's exact error bodies, decided in `onError`, in place of the adapter's;
 * - adds `X-Request-Id` and writes one access-log line.
 */
export function createRestHandler(router: AnyRouter, prefix: string): (req: Request) => Promise<Response> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  for (const procedure of Object.values(procedures)) keepJsonBodiesUncoerced(procedure);
  const handle = createOpenApiNodeHttpHandler({
    router,
    maxBodySize: MAX_BODY_BYTES,
    createContext: async ({ req }: { req: { state: RestState } }): Promise<Context> => ({
      db: await getDb(),
      log: logger().child({ requestId: req.state.requestId }),
      requestId: req.state.requestId,
      rest: req.state,
    }),
    responseMeta: ({ ctx, errors: failures }: { ctx?: Context; errors: unknown[] }) =>
      failures.length === 0 && ctx?.rest?.status ? { status: ctx.rest.status } : {},
    onError: ({ error, path, req }: { error: Error & { code?: string }; path?: string; req: { state: RestState } }) => {
      req.state.error = answerFor(error, path ? procedures[path]?._def.meta : undefined, req.state);
    },
  } as never) as unknown as NodeHandler;

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
      const body = await readBody(request, state);
      response = await runAdapter(handle, request, url, prefix, body, state);
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

async function readBody(request: Request, state: RestState): Promise<unknown> {
  if (!BODY_METHODS.has(state.method)) return undefined;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  state.rawBody = await request.text();
  if (Buffer.byteLength(state.rawBody) > MAX_BODY_BYTES) throw errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (state.rawBody.trim() === "") return undefined;
  // spec Token exchange 4: `Content-Type: application/json` is required on requests with a body.
  const mediaType = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    state.bodyProblem = errors.unsupportedMediaType();
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(state.rawBody);
    return Array.isArray(parsed) ? { items: parsed } : parsed;
  } catch {
    state.bodyProblem = errors.badRequest(GATEWAY_MESSAGES.invalidJson);
    return undefined;
  }
}

function runAdapter(handle: NodeHandler, request: Request, url: URL, prefix: string, body: unknown, state: RestState): Promise<Response> {
  const innerUrl = new URL(url);
  innerUrl.pathname = url.pathname.slice(prefix.length) || "/";
  // The adapter checks the media type itself before authentication; it always sees JSON here and
  // the real check runs after authentication (procedures.ts, bodyHygiene).
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  const req = new Proxy(request, {
    get(target, prop) {
      if (prop === "url") return innerUrl.toString();
      if (prop === "body") return body === undefined || typeof body === "object" ? body : undefined;
      if (prop === "headers") return headers;
      if (prop === "state") return state;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has(target, prop) {
      return prop === "body" || prop === "state" || Reflect.has(target, prop);
    },
  });
  return new Promise((resolve) => {
    const responseHeaders = new Headers();
    let status = 200;
    const res = {
      setHeader: (key: string, value: string | string[]) => {
        for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
      },
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      end: (payload?: string) => resolve(new Response(status === 204 ? null : payload, { status, headers: responseHeaders })),
    };
    handle(req, res).catch((error) => {
      state.error = appErrorOf(error) ?? errors.internal(error);
      resolve(errorResponse(state.error));
    });
  });
}

const COERCIBLE = new Set(["number", "boolean", "bigint", "date"]);

type ZodLike = { _zod?: { def: { type: string; shape?: Record<string, ZodLike>; coerce?: boolean } } };

/**
 * trpc-to-openapi switches on zod coercion for every top-level and nested number/boolean/date field
 * of an input (meant for query strings), so a JSON body's `"yes"` would become `true` and `""` zero.
 * JSON bodies carry real types: for routes with a body, the coerce flag is pinned off.
 */
function keepJsonBodiesUncoerced(procedure: { _def: { meta?: Meta } }): void {
  const method = procedure._def.meta?.openapi?.method;
  if (!method || !BODY_METHODS.has(method)) return;
  const { inputParser } = getInputOutputParsers(procedure as never);
  pinCoercionOff(unwrapZodType(inputParser as never, true) as ZodLike);
}

function pinCoercionOff(schema: ZodLike): void {
  const def = schema._zod?.def;
  if (!def?.shape) return;
  for (const field of Object.values(def.shape)) {
    const leaf = unwrapZodType(field as never, false) as ZodLike;
    const leafDef = leaf._zod?.def;
    if (!leafDef) continue;
    if (COERCIBLE.has(leafDef.type)) Object.defineProperty(leafDef, "coerce", { get: () => false, set: () => {}, configurable: true });
    else if (leafDef.type === "object") pinCoercionOff(leaf);
  }
}

function answerFor(error: Error & { code?: string }, meta: Meta | undefined, state: RestState): AppError {
  const known = appErrorOf(error);
  if (known) return known;
  if (isInputValidationError(error)) return inputErrorFor(meta?.inputErrors, error.cause);
  switch (error.code) {
    case "NOT_FOUND":
      return errors.notFound();
    case "PARSE_ERROR":
      return errors.badRequest(GATEWAY_MESSAGES.invalidJson);
    case "PAYLOAD_TOO_LARGE":
      return errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
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
