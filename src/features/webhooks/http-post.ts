import https from "node:https";
import { resolveDestination } from "./destination-guard";
import { REQUEST_TIMEOUT_MS } from "./schedule";

export type PostResult = { status: number | null; bodyExcerpt: string | null; failure: string | null; durationMs: number };

const agent = new https.Agent({ keepAlive: true, maxSockets: 64, timeout: REQUEST_TIMEOUT_MS });
const EXCERPT_BYTES = 512;

/**
 * One HTTPS POST of the exact body bytes, connecting to the address checked by the destination
 * guard (pinned: no second lookup), with a 10 s budget for connecting and reading the answer.
 * Never throws: a refused connection, TLS failure, DNS failure or timeout is a failure reason.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  resolve: typeof resolveDestination = resolveDestination,
): Promise<PostResult> {
  const started = performance.now();
  const done = (result: Omit<PostResult, "durationMs">): PostResult => ({ ...result, durationMs: Math.round(performance.now() - started) });
  const target = new URL(url);
  let pinned: { address: string; family: number };
  try {
    pinned = await resolve(target.hostname);
  } catch (error) {
    return done({ status: null, bodyExcerpt: null, failure: `DNS: ${(error as Error).message}` });
  }
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
          clearTimeout(timer);
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve(done({ status, bodyExcerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8"), failure: ok ? null : `HTTP ${status}` }));
        });
        response.on("error", (error) => finish(`response: ${error.message}`));
      },
    );
    const finish = (failure: string) => {
      clearTimeout(timer);
      request.destroy();
      resolve(done({ status: null, bodyExcerpt: null, failure }));
    };
    const timer = setTimeout(() => finish(`timeout: no complete answer within ${REQUEST_TIMEOUT_MS / 1000} s`), REQUEST_TIMEOUT_MS);
    request.on("error", (error: NodeJS.ErrnoException) => finish(`${error.code ?? "error"}: ${error.message}`));
    request.end(body);
  });
}
