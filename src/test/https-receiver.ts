import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

export type Received = { headers: Record<string, string>; rawBody: string; receivedAt: number };
/**
 * An answer: its status, its body (bytes as given), extra headers, and a delay before it; `hangUp`:
 * no answer at all, the connection dropped instead (after the delay).
 */
type Behavior = { status: number; delayMs?: number; body?: string | Buffer; headers?: Record<string, string>; hangUp?: boolean };

/**
 * A real HTTPS webhook receiver on loopback (certificate from the test CA). Its answer can be
 * flipped between calls; every request is recorded with its raw body bytes.
 */
export async function startReceiver(initial: Behavior = { status: 200 }) {
  let behavior = initial;
  const received: Received[] = [];
  // Requests read and not yet answered, now and at most (the engine's per-endpoint limits are counted here).
  const concurrency = { now: 0, max: 0 };
  const server = https.createServer(
    { key: fs.readFileSync(process.env.TEST_TLS_KEY ?? ""), cert: fs.readFileSync(process.env.TEST_TLS_CERT ?? "") },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers as Record<string, string>, rawBody: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now() });
        concurrency.now++;
        concurrency.max = Math.max(concurrency.max, concurrency.now);
        res.on("close", () => concurrency.now--);
        const answer = () => {
          if (behavior.hangUp) return void req.socket.destroy();
          res.writeHead(behavior.status, { "content-type": "text/plain", ...behavior.headers });
          res.end(behavior.body ?? "ok");
        };
        if (behavior.delayMs) setTimeout(answer, behavior.delayMs);
        else answer();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/hook`,
    received,
    concurrency,
    answer: (next: Behavior) => {
      behavior = next;
    },
    // Requests still waiting for a delayed answer (a receiver that never answers) end with the server.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** For one test file: starts receivers (by status, or full behavior) and closes them all after its tests. */
export function receiversOfThisFile() {
  const started: Array<{ close: () => Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(started.map((r) => r.close()));
  });
  return async (behavior: Behavior | number = 200) => {
    const r = await startReceiver(typeof behavior === "number" ? { status: behavior } : behavior);
    started.push(r);
    return r;
  };
}
