import http from "node:http";
import { expect, test } from "@playwright/test";
import { residentBytes, startWebProcess, type WebProcess } from "./support/web-process";

// docs/decisions.md "Hardening: request bodies and page headers": every request body stops being
// read once it passes the 5 MiB limit, answered 413 in the gateways' body shape, on every path —
// those the front server hands to Next.js (`|`, `%`, `^`, any path before the gateway route is
// loaded) as well as its fast path. A web process of our own (scripts/serve.ts on the built app),
// so its memory can be read while a 50 MiB chunked body is sent to it slowly.
const MiB = 1024 * 1024;
const LIMIT = 5 * MiB;
const TOTAL = 50 * MiB;
const TOO_LARGE = { status_code: 413, error: `Request body exceeds ${LIMIT} bytes` };

let web: WebProcess;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  web = await startWebProcess(Number(process.env.E2E_PORT ?? 3210) + 1);
});

test.afterAll(async () => {
  await web?.stop();
});

type Sent = { status: number; body: string; connection?: string; sentWhenAnswered: number; rssGrowth: number };

/**
 * POSTs a 50 MiB chunked body in 64 KiB chunks every 5 ms (at most about 12 MiB/s) until the server
 * answers, sampling the web process's resident memory meanwhile: what was sent when the answer
 * came, and how far memory rose above where it stood before.
 */
function sendSlowly(path: string): Promise<Sent> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const before = residentBytes(web.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(web.pid));
  }, 20);
  return new Promise<Sent>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let sentWhenAnswered = 0;
    const req = http.request(`${web.url}${path}`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    req.on("response", (res) => {
      answered = true;
      sentWhenAnswered = sent;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearInterval(sampler);
        peak = Math.max(peak, residentBytes(web.pid));
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          connection: res.headers.connection,
          sentWhenAnswered,
          rssGrowth: peak - before,
        });
      });
    });
    // The server closes once it has answered, while the body is still being written.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") {
        clearInterval(sampler);
        reject(error);
      }
    });
    const next = () => {
      if (answered || req.destroyed) return;
      if (sent >= TOTAL) return void req.end();
      sent += chunk.length;
      if (req.write(chunk)) setTimeout(next, 5);
      else req.once("drain", () => setTimeout(next, 5));
    };
    next();
  });
}

function expectRefusedEarly(answer: Sent, path: string) {
  expect(answer.status, `${path}: ${answer.body.slice(0, 200)}`).toBe(413);
  expect(JSON.parse(answer.body), path).toEqual(TOO_LARGE);
  expect(answer.connection, path).toBe("close");
  // Answered while the sender was still writing, soon past the limit: the rest never read. What
  // was sent includes what the kernel's socket buffers took after the server stopped reading (a few
  // MiB on loopback) while the answer was on its way.
  expect(answer.sentWhenAnswered, path).toBeLessThan(12 * MiB);
}

test("a plain gateway path before the gateway route is first loaded (through Next.js) stops at the limit", async () => {
  const answer = await sendSlowly("/api/token");
  expectRefusedEarly(answer, "/api/token");
});

test("every gateway path stops reading at the limit with 413, and memory stays far below the body's size", async () => {
  const paths = ["/api/x|y", "/api/x%7Cy", "/ingest/x%7Cy", "/api/x^y", "/api/[x]", "/api/token", "/ingest/events"];
  // Load every route involved first (the gateways, the proxy), so their code is not counted as the bodies' memory.
  for (const path of paths) await fetch(`${web.url}${path}`, { method: "POST", body: "{}" });
  for (const path of paths) {
    const answer = await sendSlowly(path);
    expectRefusedEarly(answer, path);
    expect(answer.rssGrowth, `${path}: resident memory grew by ${(answer.rssGrowth / MiB).toFixed(1)} MiB`).toBeLessThan(25 * MiB);
  }
});

test("a declared body over the limit is refused at once, unread, on a path Next.js serves", async () => {
  for (const path of ["/api/x%7Cy", "/ingest/x|y", "/console/api/trpc/x"]) {
    const answer = await new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = http.request(`${web.url}${path}`, {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "content-length": String(TOTAL) },
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), connection: res.headers.connection }));
      });
      req.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
      req.write("{");
    });
    expect(answer.status, path).toBe(413);
    expect(JSON.parse(answer.body), path).toEqual(TOO_LARGE);
    expect(answer.connection, path).toBe("close");
  }
});
