import https from "node:https";
import tls from "node:tls";
import { resolveDestination } from "./destination-guard";
import { parseRetryAfter, REQUEST_TIMEOUT_MS } from "./schedule";

export type PostResult = {
  status: number | null;
  bodyExcerpt: string | null;
  failure: string | null;
  durationMs: number;
  /** Seconds a 429 or 503 answer asked to wait with `Retry-After` (shared decisions §15); null otherwise. */
  retryAfterSeconds: number | null;
};

export type Resolve = (hostname: string, signal: AbortSignal) => ReturnType<typeof resolveDestination>;

/**
 * Every connection's TLS context, made once: the default one (the system's CAs and NODE_EXTRA_CA_CERTS,
 * certificates verified as before). Without it `tls.connect` builds a new one per connection, about
 * 0.3 ms of CPU each: hundreds at once when a hundred receivers that never answer time out together
 * and are connected to again. TLS sessions of up to 1,000 destinations are kept for resumption (the
 * default 100 thrashes beyond 100 endpoints).
 */
const agent = new https.Agent({
  keepAlive: true,
  maxSockets: 64,
  timeout: REQUEST_TIMEOUT_MS,
  secureContext: tls.createSecureContext(),
  maxCachedSessions: 1_000,
});
const EXCERPT_BYTES = 512;

export const TIMEOUT_FAILURE = `timeout: no complete answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
export const LEASE_FAILURE = "timeout: the batch's lease ran out before an answer";

/**
 * The first bytes of an answer as storable text: invalid UTF-8 (a binary or UTF-16 body, a character
 * cut at the limit) becomes U+FFFD, and so does NUL, which PostgreSQL text and jsonb cannot hold
 * (docs/decisions.md, Hardening: deliveries).
 */
export function excerptOf(bytes: Buffer): string {
  return bytes.subarray(0, EXCERPT_BYTES).toString("utf8").replaceAll("\0", "\uFFFD");
}

/**
 * One HTTPS POST of the exact body bytes, connecting to the address checked by the destination
 * guard (pinned: no second lookup), with a 10 s budget for looking up, connecting and reading the
 * answer (docs/decisions.md, Hardening: deliveries), ended earlier when `deadline` aborts (the batch's
 * lease). Never throws: a refused connection, TLS failure, DNS failure or timeout is a failure reason.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  { resolve = resolveDestination, deadline }: { resolve?: Resolve; deadline?: AbortSignal } = {},
): Promise<PostResult> {
  const started = performance.now();
  // One timer per attempt, cleared when it ends (docs/decisions.md, "Delivery engine: a dispatcher per
  // worker"): at thousands of attempts a second, a timeout signal per attempt left to fire 10 s later cost more than the POST.
  const controller = new AbortController();
  const signal = controller.signal;
  let budgetSpent = false;
  const budget = setTimeout(() => {
    budgetSpent = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const deadlineReached = () => controller.abort();
  if (deadline?.aborted) controller.abort();
  else deadline?.addEventListener("abort", deadlineReached, { once: true });
  const timedOut = () => (budgetSpent ? TIMEOUT_FAILURE : LEASE_FAILURE);
  const done = (result: Omit<PostResult, "durationMs" | "retryAfterSeconds"> & { retryAfterSeconds?: number | null }): PostResult => {
    clearTimeout(budget);
    deadline?.removeEventListener("abort", deadlineReached);
    return { retryAfterSeconds: null, ...result, durationMs: Math.round(performance.now() - started) };
  };
  const target = new URL(url);
  let pinned: { address: string; family: number };
  try {
    pinned = await resolve(target.hostname, signal);
  } catch (error) {
    if (signal.aborted) return done({ status: null, bodyExcerpt: null, failure: `${timedOut()} (DNS lookup of ${target.hostname})` });
    if ((error as NodeJS.ErrnoException).code === "ETIMEOUT") {
      return done({ status: null, bodyExcerpt: null, failure: `timeout: no answer to the DNS lookup of ${target.hostname}` });
    }
    return done({ status: null, bodyExcerpt: null, failure: `DNS: ${(error as Error).message}` });
  }
  if (signal.aborted) return done({ status: null, bodyExcerpt: null, failure: timedOut() });
  return new Promise((resolve) => {
    const request = https.request(
      target,
      {
        method: "POST",
        agent,
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: (_host, _options, callback) => callback(null, [{ address: pinned.address, family: pinned.family }] as never, pinned.family),
        servername: target.hostname,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on("end", () => {
          signal.removeEventListener("abort", abort);
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const retryAfter = status === 429 || status === 503 ? parseRetryAfter(response.headers["retry-after"], new Date()) : null;
          resolve(done({ status, bodyExcerpt: excerptOf(Buffer.concat(chunks)), failure: ok ? null : `HTTP ${status}`, retryAfterSeconds: retryAfter }));
        });
        response.on("error", (error) => finish(`response: ${error.message}`));
      },
    );
    const finish = (failure: string) => {
      signal.removeEventListener("abort", abort);
      request.destroy();
      resolve(done({ status: null, bodyExcerpt: null, failure }));
    };
    const abort = () => finish(timedOut());
    signal.addEventListener("abort", abort, { once: true });
    request.on("error", (error: NodeJS.ErrnoException) => finish(`${error.code ?? "error"}: ${error.message}`));
    request.end(body);
  });
}
