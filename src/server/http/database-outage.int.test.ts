import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { prospectPartner } from "../../features/prospects/prospect-test-helpers";
import { completeProspectFields } from "../../test/samples";
import { resetConfig } from "../config";
import { closeDb } from "../db/client";
import { DATABASE_RETRY_AFTER_SECONDS, GATEWAY_MESSAGES } from "../errors";

/**
 * A TCP proxy in front of the test's PostgreSQL that can go down (every connection cut, the port
 * refusing) and come back on the same port: the database as a restart looks to the service.
 */
async function outageProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const up = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  };
  const down = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  };
  await up();
  return { port: () => port, up, down };
}

const original = process.env.DATABASE_URL as string;
afterAll(async () => {
  await closeDb();
  process.env.DATABASE_URL = original;
  resetConfig();
});

describe("the Partner API while PostgreSQL is out of reach (docs/decisions.md: Faults, proven)", () => {
  it("answers 503 with Retry-After and the documented body at once, then serves again on the same pool once the database is back", async () => {
    const proxy = await outageProxy(new URL(original));
    const through = new URL(original);
    through.port = String(proxy.port());
    // The service's pool reaches the database through the proxy from here on.
    await closeDb();
    process.env.DATABASE_URL = through.toString();
    resetConfig();
    const partner = await prospectPartner();
    expect((await partner.post(completeProspectFields(partner.source, "before"))).status).toBe(200);

    await proxy.down();
    // Every request while it is down: a 503 at once, the twentieth as the first (the pool's
    // reconnection delay does not grow into a wait).
    for (let i = 0; i < 20; i++) {
      const method = i % 2 ? "POST" : "GET";
      const started = Date.now();
      const answer = await (i % 2 ? partner.post(completeProspectFields(partner.source, `during-${i}`)) : partner.get("before"));
      expect(answer.status, `${method} ${i}`).toBe(503);
      expect(answer.headers.get("retry-after"), method).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(answer.body, method).toEqual({ status_code: 503, error: GATEWAY_MESSAGES.databaseUnavailable });
      expect(Date.now() - started, `${method} ${i}`).toBeLessThan(2_000);
    }

    await proxy.up();
    const back = Date.now();
    expect((await partner.get("before")).status).toBe(200);
    expect(Date.now() - back).toBeLessThan(2_000);
    expect((await partner.post(completeProspectFields(partner.source, "after"))).status).toBe(200);
    // The POST answered 503 wrote nothing.
    expect((await partner.get("during-1")).status).toBe(404);
  });
});
