import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { getConfig } from "../config";
import { errors } from "../errors";
import { databaseKnownDown } from "../health";
import { isStopping } from "../lifecycle";
import { logger } from "../log";
import { observePageRequest, serveMetrics } from "../observability/metrics";
import { MAX_BODY_BYTES } from "./body-limit";
import { restAnswerOf } from "./error-wire";
import { answerHealth } from "./health-routes";
import { lingerAfterAnswer } from "./linger";
import { isDecodablePath, MALFORMED_PATH } from "./malformed-path";
import { databaseOutagePage } from "./outage-page";

/**
 * The web process's one HTTP server, the door every request comes through (`scripts/serve.ts` in
 * development and production, `src/test/http.ts` in the tests): `/healthz`, `/readyz` and
 * `/metrics` answered here, then an explicit table of mounts (`webMounts` in
 * src/composition/gateways.ts: the gateways, their docs, the console's tRPC endpoint), then
 * Next.js for everything else (docs/decisions.md "Structure: one door into the gateways").
 */

/** A handler of Node's own request and response. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A line of the mount table. */
export type Mount = {
  /** The mounted path: that path and every path below it (`/api` takes `/api` and `/api/x`), or that path only when `exact`. */
  path: `/${string}`;
  exact?: boolean;
  handler: NodeHandler;
  /**
   * A gateway (`createRestGateway`): it reads its body itself and answers a body over the limit
   * with its own 413, and counts its requests in the metrics under its route templates.
   */
  gateway?: boolean;
};

/** The first line of the table that takes this path (the table lists the longer paths first). */
export function mountFor(pathname: string, mounts: readonly Mount[]): Mount | undefined {
  return mounts.find((mount) => pathname === mount.path || (!mount.exact && pathname.startsWith(`${mount.path}/`)));
}

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

/** What Next.js serves without the database: its build's static files. */
const STATIC_PATH = /^\/(?:_next\/static\/|favicon\.ico$)/;

/**
 * The door: health and metrics, then the mount table, then `next` (Next.js's request handler; in
 * the tests a stand-in). Bodies are bounded first; a path with broken percent-encoding is refused
 * before any handler decodes it; while the database is known to be down a page answers 503 with
 * `Retry-After` instead of the error Next.js would render. While the process stops, a connection
 * closes after the answer it is writing (docs/decisions.md "Health and shutdown").
 */
export function createFrontServer(options: { mounts: readonly Mount[]; next: NodeHandler }): http.Server {
  const { mounts, next } = options;
  return http.createServer((req, res) => {
    if (isStopping()) res.shouldKeepAlive = false;
    if (answerHealth(req, res)) return;
    setForwardedFor(req, getConfig().trustProxy);
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    const mount = mountFor(pathname, mounts);
    // The gateways count their own requests (docs/decisions.md "Hardening: metrics").
    if (!mount?.gateway) observePageRequest(req, res);
    if (!mount && serveMetrics(req, res)) return;
    if (!bodyAdmitted(req, res, mount?.gateway === true)) return;
    // A gateway refuses it itself, in its own answer (X-Request-Id, access log, metrics).
    if (!mount?.gateway && !isDecodablePath(pathname)) return sendJson(res, 400, { status_code: 400, error: MALFORMED_PATH });
    if (!mount && !STATIC_PATH.test(pathname) && databaseKnownDown()) return databaseOutagePage(req, res);
    (mount?.handler ?? next)(req, res).catch((error: unknown) => {
      logger().error({ err: error, path: pathname }, "request failed");
      if (res.headersSent) return res.destroy();
      const answer = restAnswerOf(errors.internal(error));
      sendJson(res, answer.status, answer.body);
    });
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

/**
 * Bounds the body of a request (docs/decisions.md "Hardening: request bodies and page headers"):
 * Next.js and tRPC's adapter would read any amount; a gateway stops at the limit itself. A declared
 * length over MAX_BODY_BYTES: answered 413 here at once, unread, unless a gateway serves it (false:
 * the request goes no further), by the gateway otherwise. A chunked body is cut one byte past the
 * limit: its reader (the gateway's, which answers 413 in its own shape before any authentication)
 * sees it end there, and nothing more is read until the answer is written. Either way the
 * connection closes after the answer.
 */
function bodyAdmitted(req: IncomingMessage, res: ServerResponse, gateway: boolean): boolean {
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
    lingerAfterAnswer(req, res);
    if (gateway) return true;
    const answer = restAnswerOf(errors.payloadTooLarge(`Request body exceeds ${MAX_BODY_BYTES} bytes`));
    sendJson(res, answer.status, answer.body);
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
