import fs from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { getConfig } from "../config";
import { errors } from "../errors";
import { isStopping } from "../lifecycle";
import { logger } from "../log";
import { observePageRequest, serveMetrics } from "../observability/metrics";
import { MAX_BODY_BYTES } from "./body-limit";
import { restAnswerOf } from "./error-wire";
import { answerHealth } from "./health-routes";

/**
 * The web process's HTTP server (`scripts/serve.ts`): Next.js serves everything, except that a
 * gateway request Next.js would hand, unchanged, to the gateway's catch-all route
 * (`src/app/api/[...path]/route.ts`, `src/app/ingest/[...path]/route.ts`) goes straight to that
 * route's own handler, through its Node door (`createRestGateway(…).node`). Same handler, same
 * module instance, same answers; what it skips is Next.js turning the Node request into a web
 * `Request` and piping a web `Response` back, about a third of a partner request's CPU
 * (docs/decisions.md, "Performance: API throughput").
 *
 * The handler is the one the route module built: the composition root publishes it here when
 * Next.js loads the route (`publishNodeGateways`), so caches and the database pool are the ones
 * the console's routes use. Until a first gateway request has loaded the route, Next.js answers.
 */

/** A gateway's Node door. */
export type NodeGateway = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
export type GatewayPrefix = "/api" | "/ingest";
type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const PUBLISHED = Symbol.for("partner-integration-service.node-gateways");
type Published = Partial<Record<GatewayPrefix, NodeGateway>>;

/** Called by the composition root once its gateways are built (in whichever module graph loaded it). */
export function publishNodeGateways(gateways: Record<GatewayPrefix, NodeGateway>): void {
  (globalThis as unknown as Record<symbol, Published>)[PUBLISHED] = gateways;
}

function publishedGateway(prefix: GatewayPrefix): NodeGateway | undefined {
  return (globalThis as unknown as Record<symbol, Published | undefined>)[PUBLISHED]?.[prefix];
}

/**
 * What the build says about gateway paths: for each gateway with a catch-all route, the first
 * path segments taken by other routes (`/api/docs`, `/api/openapi.json`), and the proxy's
 * matchers (a path the proxy runs on goes through Next.js).
 */
export type FastPathRules = {
  gateways: Map<GatewayPrefix, ReadonlySet<string>>;
  proxyMatchers: RegExp[];
};

const GATEWAYS: readonly GatewayPrefix[] = ["/api", "/ingest"];

/**
 * Reads the rules from a Next.js build directory (`.next`). Anything that could send a gateway path
 * elsewhere than its catch-all route turns the fast path off for that gateway: a dynamic route
 * beside the catch-all, a custom rewrite, redirect or header rule, a base path.
 */
export function fastPathRulesOf(distDir: string): FastPathRules {
  const read = <T>(file: string): T | undefined => {
    try {
      return JSON.parse(fs.readFileSync(path.join(distDir, file), "utf8")) as T;
    } catch {
      return undefined;
    }
  };
  const appRoutes = Object.values(read<Record<string, string>>("app-path-routes-manifest.json") ?? {});
  const routes = read<{
    basePath?: string;
    redirects?: { internal?: boolean }[];
    headers?: unknown[];
    rewrites?: unknown[] | { beforeFiles?: unknown[]; afterFiles?: unknown[]; fallback?: unknown[] };
  }>("routes-manifest.json");
  const rewrites = routes?.rewrites;
  const rewriteCount = Array.isArray(rewrites)
    ? rewrites.length
    : (rewrites?.beforeFiles?.length ?? 0) + (rewrites?.afterFiles?.length ?? 0) + (rewrites?.fallback?.length ?? 0);
  const custom =
    !routes || Boolean(routes.basePath) || (routes.redirects ?? []).some((r) => !r.internal) || (routes.headers?.length ?? 0) > 0 || rewriteCount > 0;
  const gateways = new Map<GatewayPrefix, ReadonlySet<string>>();
  if (!custom) {
    for (const prefix of GATEWAYS) {
      if (!appRoutes.includes(`${prefix}/[...path]`)) continue;
      const taken = new Set<string>();
      let dynamic = false;
      for (const route of appRoutes) {
        if (!route.startsWith(`${prefix}/`) || route === `${prefix}/[...path]`) continue;
        const first = route.slice(prefix.length + 1).split("/")[0];
        if (first.startsWith("[")) dynamic = true;
        taken.add(first);
      }
      if (!dynamic) gateways.set(prefix, taken);
    }
  }
  const functions = read<{ functions?: Record<string, { matchers?: { regexp: string }[] }> }>("server/functions-config-manifest.json");
  const middleware = read<{ middleware?: Record<string, { matchers?: { regexp: string }[] }> }>("server/middleware-manifest.json");
  const proxyMatchers = [...Object.values(functions?.functions ?? {}), ...Object.values(middleware?.middleware ?? {})]
    .flatMap((entry) => entry.matchers ?? [])
    .map((matcher) => new RegExp(matcher.regexp));
  return { gateways, proxyMatchers };
}

/** Characters of a path segment that need no decoding (RFC 3986 pchar without `%`). */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$/;

/**
 * The gateway whose catch-all route Next.js would give this request unchanged, or undefined: the
 * path is plain (no `%`, no empty, `.` or `..` segment, no trailing slash: Next.js would decode,
 * redirect or normalize those), its first segment after the prefix is no other route's, and the
 * proxy does not run on it.
 */
export function gatewayFor(url: string, rules: FastPathRules): GatewayPrefix | undefined {
  const query = url.indexOf("?");
  const pathname = query === -1 ? url : url.slice(0, query);
  const prefix: GatewayPrefix | undefined = pathname.startsWith("/api/") ? "/api" : pathname.startsWith("/ingest/") ? "/ingest" : undefined;
  if (!prefix) return undefined;
  const taken = rules.gateways.get(prefix);
  if (!taken || !PLAIN_PATH.test(pathname)) return undefined;
  const segments = pathname.slice(prefix.length + 1).split("/");
  if (segments.some((segment) => segment === "." || segment === "..")) return undefined;
  if (taken.has(segments[0])) return undefined;
  if (rules.proxyMatchers.some((matcher) => matcher.test(pathname))) return undefined;
  return prefix;
}

/** A path Next.js hands to a gateway's catch-all route (that gateway counts it), as far as its prefix and first segment tell. */
function isGatewayPath(url: string, rules: FastPathRules): boolean {
  const prefix = url.startsWith("/api/") ? "/api" : url.startsWith("/ingest/") ? "/ingest" : undefined;
  if (!prefix) return false;
  const first = url.slice(prefix.length + 1).split(/[/?]/)[0];
  return !(rules.gateways.get(prefix) ?? DOCS_ROUTES).has(first);
}
/** The other routes under `/api` when the build's own list is not known (`npm run dev`). */
const DOCS_ROUTES: ReadonlySet<string> = new Set(["docs", "openapi.json"]);

/**
 * The client's address as Next.js's routes read it (`X-Forwarded-For`, whose last entry counts: the
 * console's sign-in limits, decisions §15): the connection's own address, unless `TRUST_PROXY=1`
 * says a reverse proxy in front appends it. Next.js keeps a header it is given, so without this a
 * client could name any address it likes.
 */
function setForwardedFor(req: IncomingMessage, trustProxy: boolean): void {
  const socket = req.socket.remoteAddress;
  if (trustProxy && req.headers["x-forwarded-for"]) return;
  if (socket) req.headers["x-forwarded-for"] = socket;
  else delete req.headers["x-forwarded-for"];
}

/**
 * The HTTP server: `/healthz` and `/readyz` answered here, gateway requests to their published
 * handler, the rest to Next.js; bodies bounded first. While the process stops, a connection closes
 * after the answer it is writing (docs/decisions.md "Health and shutdown").
 */
export function createFrontServer(next: NextHandler, rules: FastPathRules): http.Server {
  const { trustProxy } = getConfig();
  return http.createServer((req, res) => {
    if (isStopping()) res.shouldKeepAlive = false;
    if (answerHealth(req, res)) return;
    setForwardedFor(req, trustProxy);
    const prefix = gatewayFor(req.url ?? "/", rules);
    const gateway = prefix ? publishedGateway(prefix) : undefined;
    // The gateways count their own requests, whichever door (docs/decisions.md "Hardening: metrics").
    if (!prefix && !isGatewayPath(req.url ?? "/", rules)) observePageRequest(req, res);
    if (!prefix && serveMetrics(req, res)) return;
    if (!bodyAdmitted(req, res, !gateway)) return;
    (gateway ?? next)(req, res).catch((error: unknown) => {
      logger().error({ err: error, path: req.url?.split("?")[0] }, "request failed");
      if (res.headersSent) return res.destroy();
      const answer = restAnswerOf(errors.internal(error));
      res.writeHead(answer.status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify(answer.body));
    });
  });
}

/**
 * Bounds the body of a request (docs/decisions.md "Hardening: request bodies and page headers"):
 * Next.js and its proxy would read any amount; the gateway's Node door stops at the limit itself.
 * A declared length over MAX_BODY_BYTES: answered 413 here at once, unread, when Next.js is to serve
 * it (false: the request goes no further), by the gateway otherwise. A chunked body is cut one byte
 * past the limit: its reader (the gateway's, either door, which answers 413 in its own shape before
 * any authentication) sees it end there, and nothing more is read until the answer is written.
 * Either way the connection closes after the answer.
 */
function bodyAdmitted(req: IncomingMessage, res: ServerResponse, toNext: boolean): boolean {
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
    lingerAfterAnswer(req, res);
    if (!toNext) return true;
    const answer = restAnswerOf(errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`));
    res.writeHead(answer.status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(JSON.stringify(answer.body));
    return false;
  }
  // Without Transfer-Encoding, Node's parser holds the body to its declared length (checked above).
  if (req.headers["transfer-encoding"] !== undefined) cutAtLimit(req, res);
  return true;
}

/**
 * Counts the body as Node's HTTP parser hands it to the request stream (`push`, whoever reads it
 * and however), and past MAX_BODY_BYTES ends the stream one byte past the limit. Dropped chunks
 * answer `false`, so the parser stops reading the socket (Node's own back-pressure), until the
 * answer is written (then they are drained: `lingerAfterAnswer`). The counting `push` stays in
 * place: Next.js, after copying a body for its proxy, copies the copy's stream methods onto the
 * request, which would let the parser's later chunks hit the ended stream (an uncaught "push after
 * EOF").
 */
function cutAtLimit(req: IncomingMessage, res: ServerResponse): void {
  const push = req.push.bind(req);
  let received = 0;
  let cut = false;
  let draining = false;
  const counted = (chunk: Buffer | null, encoding?: BufferEncoding): boolean => {
    if (cut) return draining;
    if (chunk === null) return push(null);
    received += chunk.length;
    if (received <= MAX_BODY_BYTES) return push(chunk, encoding);
    cut = true;
    lingerAfterAnswer(req, res, () => {
      draining = true;
    });
    // As far as this process goes the message ends here. Marked complete, or Node would take the
    // early end for the caller going away and reset the connection before the 413 is written.
    req.complete = true;
    push(chunk.subarray(0, chunk.length - (received - MAX_BODY_BYTES - 1)));
    push(null);
    return false;
  };
  Object.defineProperty(req, "push", { configurable: true, get: () => counted, set: () => {} });
}

/** How long a connection refused for its body still drains what the caller sends after the answer. */
const LINGER_MS = 2_000;

/**
 * Closes the connection after the answer as RFC 9112 §9.6 asks of a server closing on a request it
 * did not read whole: our side is shut at once, and what the caller is still sending is read and
 * dropped for up to LINGER_MS, so the caller reads the 413 instead of a reset that would discard it.
 */
/**
 * Stops the server (decisions §14, Shutdown): no new connections, idle ones closed, requests in
 * flight answered within `timeoutMs`, after which the connections left are cut.
 */
export function drainServer(server: http.Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger().warn({ timeoutMs }, "requests still in flight at the shutdown timeout: connections closed");
      server.closeAllConnections();
    }, timeoutMs);
    // A keep-alive connection whose answer was begun before the signal turns idle after it: closed then.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearTimeout(timer);
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function lingerAfterAnswer(req: IncomingMessage, res: ServerResponse, onDrain: () => void = () => {}): void {
  res.shouldKeepAlive = false;
  const socket = req.socket;
  // Node calls it once the last answer on a connection that closes is written.
  socket.destroySoon = () => {
    onDrain();
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
