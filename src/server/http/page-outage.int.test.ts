import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, getJson, type Started, startProcess, until } from "../../test/processes";
import { DATABASE_RETRY_AFTER_SECONDS } from "../errors";

/**
 * Pages while PostgreSQL is down (docs/decisions.md "Structure: one door into the gateways", Pages
 * during a database outage), through real processes: the web process (scripts/serve.ts, the
 * production build) on an external embedded PostgreSQL reached through DATABASE_URL. The database
 * is stopped, and started again on the same data directory: it comes back on another port, so the
 * service reaches it through a TCP relay on a fixed one, as a restarted server looks to it.
 */
const PORT = 6031;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-page-outage-"));
fs.chmodSync(dataDir, 0o755);
let database: Started | undefined;
let target = 0;
const sockets = new Set<net.Socket>();
const relay = net.createServer((client) => {
  const upstream = net.connect(target, "127.0.0.1");
  for (const socket of [client, upstream]) {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  }
  client.pipe(upstream).pipe(client);
});

/** Starts the embedded PostgreSQL of `dataDir` and points the relay at it. */
async function startDatabase(): Promise<string> {
  const started = startProcess(["src/test/embedded-start.ts", dataDir], { ...process.env });
  await until(
    () => started.output().includes('"ready":true'),
    120_000,
    () => started.output(),
  );
  database = started;
  const url = new URL((JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string }).url);
  target = Number(url.port);
  return url.toString();
}

async function stopDatabase(): Promise<void> {
  database?.child.kill("SIGTERM");
  await database?.exited;
  for (const socket of sockets) socket.destroy();
}

beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await stopDatabase().catch(() => {});
  relay.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function page(url: string, accept = "text/html"): Promise<{ status: number; retryAfter: string | null; type: string | null; text: string }> {
  const answer = await fetch(url, { headers: { accept }, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  return { status: answer.status, retryAfter: answer.headers.get("retry-after"), type: answer.headers.get("content-type"), text: await answer.text() };
}

describe("pages while PostgreSQL is down", () => {
  it("answer 503 with Retry-After at once, static files keep serving, and pages serve again within seconds of its return", async () => {
    const url = new URL(await startDatabase());
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    url.port = String((relay.address() as net.AddressInfo).port);
    const web = startProcess(["scripts/serve.ts"], {
      ...process.env,
      DATABASE_URL: url.toString(),
      DATA_DIR: path.join(dataDir, "service"),
      PORT: String(PORT),
      WORKER: "off",
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
    });
    await until(
      async () => (await getJson(`${base}/healthz`))?.status === 200,
      90_000,
      () => web.output(),
    );
    const signIn = await page(`${base}/console/signin`);
    expect(signIn.status).toBe(200);
    const asset = signIn.text.match(/\/_next\/static\/[^"]+\.js/)?.[0];
    expect(asset).toBeDefined();

    await stopDatabase();
    await until(
      async () => (await page(`${base}/console/signin`)).status === 503,
      5_000,
      () => web.output(),
    );
    for (const path of ["/console/signin", "/console", "/enroll/hosted/acme/src/p-1"]) {
      const started = Date.now();
      const down = await page(`${base}${path}`);
      expect(down.status, path).toBe(503);
      expect(down.retryAfter, path).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(down.type, path).toBe("text/html; charset=utf-8");
      expect(down.text, path).toContain("Temporarily unavailable");
      expect(Date.now() - started, path).toBeLessThan(1_000);
    }
    // A caller that does not ask for HTML gets the gateways' body.
    expect(JSON.parse((await page(`${base}/demo/api/deliveries`, "application/json")).text)).toEqual({
      status_code: 503,
      error: "Service temporarily unavailable; retry shortly",
    });
    expect((await page(`${base}${asset}`, "*/*")).status).toBe(200);
    expect((await getJson(`${base}/healthz`))?.status).toBe(200);

    await startDatabase();
    const back = Date.now();
    await until(
      async () => (await page(`${base}/console/signin`)).status === 200,
      10_000,
      () => web.output(),
    );
    expect(Date.now() - back).toBeLessThan(5_000);
    web.child.kill("SIGTERM");
    expect(await web.exited).toEqual({ code: 0, signal: null });
  }, 300_000);
});
