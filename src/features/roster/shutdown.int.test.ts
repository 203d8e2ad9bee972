import http from "node:http";
import net from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseUrl, getDb } from "../../server/db/client";
import { REPEATED_SIGNAL_MS } from "../../server/lifecycle";
import { BUILD_TIMEOUT_MS, ensureBuilt, getJson, startProcess, until } from "../../test/processes";
import { properties } from "./roster.table";
import { address, onboardingPartner } from "./roster-test-helpers";

/**
 * decisions §14, Shutdown, on the built web process (scripts/serve.ts, as `npm start` runs it): a
 * 500-item roster batch in flight at SIGTERM is answered 200 and fully written; meanwhile /readyz
 * answers 503 "shutting down" and new connections are refused; the process then exits 0. A second
 * SIGTERM sent later forces the stop at once.
 */
const PORT = 5031;

async function startWeb(port: number) {
  const web = startProcess(["scripts/serve.ts"], {
    ...process.env,
    DATABASE_URL: await databaseUrl(),
    PORT: String(port),
    WORKER: "off",
    // No worker runs beside this test's web process.
    READY_WORKER_HEARTBEAT_SECONDS: "0",
    // Readiness names its reasons only to this token (docs/decisions.md, Second security review).
    METRICS_TOKEN: "shutdown-test-metrics-token",
    LOG_LEVEL: "info",
    NEXT_TELEMETRY_DISABLED: "1",
  });
  await until(
    async () => (await getJson(`http://127.0.0.1:${port}/readyz`))?.status === 200,
    90_000,
    () => web.output(),
  );
  return web;
}

/**
 * POSTs over a connection of its own; resolves with the status, the body and when the answer came.
 * With `midway`, half the body is sent, then the rest once `midway` resolves: a request surely in flight.
 */
function post(
  port: number,
  path: string,
  token: string,
  body: unknown,
  midway?: Promise<void>,
): Promise<{ status: number; body: Record<string, unknown>; at: number }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), at: Date.now() }));
      },
    );
    request.on("error", reject);
    if (!midway) return request.end(payload);
    const half = Math.floor(payload.length / 2);
    request.write(payload.slice(0, half));
    midway.then(() => request.end(payload.slice(half)));
  });
}

/** A connection opened and a request begun before the signal, finished after it. */
function begunRequest(port: number): Promise<{ finish: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write("GET /readyz HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer shutdown-test-metrics-token\r\n");
      resolve({
        finish: () =>
          new Promise((done) => {
            let text = "";
            socket.on("data", (chunk) => {
              text += chunk;
            });
            socket.on("close", () => done(text));
            socket.write("\r\n");
          }),
      });
    });
    socket.on("error", reject);
  });
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

const batch = (prefix: string) =>
  Array.from({ length: 500 }, (_, i) => ({
    external_system_id: `${prefix}-${i}`,
    building_name: `${prefix} Court ${i}`,
    address: address(`${100 + i} Congress Ave`),
  }));

describe("graceful shutdown of the web process (decisions §14, Shutdown)", () => {
  beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);
  it("answers a 500-item batch in flight at SIGTERM with 200, every item written; readiness 503 and new connections refused meanwhile", async () => {
    const { owner, token } = await onboardingPartner();
    const web = await startWeb(PORT);
    // A first batch loads the route (and warms it), as a running service would have.
    expect((await post(PORT, `/api/partners/${owner.slug}/properties`, token, batch("warm"))).status).toBe(200);

    const probe = await begunRequest(PORT);
    let sendTheRest = () => {};
    const answer = post(PORT, `/api/partners/${owner.slug}/properties`, token, batch("drain"), new Promise((resolve) => (sendTheRest = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    web.child.kill("SIGTERM");
    // Readiness turns 503 and new connections are refused while the batch is still arriving.
    await until(async () => !(await connects(PORT)), 10_000);
    const readiness = await probe.finish();
    sendTheRest();
    const result = await answer;

    expect(result.status).toBe(200);
    expect(result.body.meta).toEqual({ created: 500, updated: 0, failed: 0 });
    expect(readiness).toMatch(/^HTTP\/1\.1 503/);
    expect(readiness).toContain('"shutdown":"shutting down"');
    expect(await web.exited, web.output()).toEqual({ code: 0, signal: null });
    expect(web.output()).not.toMatch(/FATAL|"level":50/);

    const [written] = await (await getDb())
      .select({ n: sql<number>`count(*)::int` })
      .from(properties)
      .where(and(eq(properties.ownerId, owner.id), sql`${properties.externalSystemId} like 'drain-%'`));
    expect(written.n).toBe(500);
  }, 180_000);

  it("stops at once on a second SIGTERM sent later", async () => {
    const { owner, token } = await onboardingPartner();
    const web = await startWeb(PORT + 1);
    expect((await post(PORT + 1, `/api/partners/${owner.slug}/properties`, token, batch("warm"))).status).toBe(200);
    // The batch's body is held back, so the request is surely still in flight at both signals.
    let sendTheRest = () => {};
    const answer = post(PORT + 1, `/api/partners/${owner.slug}/properties`, token, batch("forced"), new Promise((resolve) => (sendTheRest = resolve))).catch(
      (error: Error) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    web.child.kill("SIGTERM");
    // Later than a repeat of the first (the process group's signal delivered again) would come.
    await new Promise((resolve) => setTimeout(resolve, REPEATED_SIGNAL_MS + 200));
    web.child.kill("SIGTERM");
    expect(await web.exited).toEqual({ code: 1, signal: null });
    expect(web.output()).toContain("stop forced");
    sendTheRest();
    await answer;
  }, 180_000);
});
