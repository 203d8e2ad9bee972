import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";

export type Arrival = { delivery: string; event: string; body: string; at: number };

/** Local HTTPS receivers with keep-alive that answer 200 (at once, or after `delayMs`) and record every arrival. */
export async function startBenchReceivers(count: number, tls: { key: string; cert: string }, delayMs = 0) {
  const arrivals: Arrival[] = [];
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = https.createServer({ key: fs.readFileSync(tls.key), cert: fs.readFileSync(tls.cert), keepAlive: true }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          arrivals.push({
            delivery: String(req.headers["x-webhook-delivery"]),
            event: String(req.headers["x-webhook-event"]),
            body: Buffer.concat(chunks).toString(),
            at: Date.now(),
          });
          if (delayMs > 0) setTimeout(() => res.writeHead(200).end(), delayMs);
          else res.writeHead(200).end();
        });
      });
      server.keepAliveTimeout = 30_000;
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return server;
    }),
  );
  return {
    urls: servers.map((server) => `https://localhost:${(server.address() as AddressInfo).port}/hook`),
    arrivals,
    close: () => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))),
  };
}

/**
 * Local HTTPS receivers that accept the connection, read the request and never answer (a receiver
 * behind a firewall that drops packets makes its caller wait the same way). `cut()` drops the
 * connections held so far (the attempts waiting on them fail at once); new ones hang again.
 */
export async function startHangingReceivers(count: number, tls: { key: string; cert: string }) {
  let requests = 0;
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = https.createServer({ key: fs.readFileSync(tls.key), cert: fs.readFileSync(tls.cert) }, (req) => {
        req.resume();
        req.on("end", () => {
          requests++;
        });
      });
      // Node's own timeouts would answer or close: this receiver never does either.
      server.requestTimeout = 0;
      server.headersTimeout = 0;
      server.timeout = 0;
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return server;
    }),
  );
  return {
    urls: servers.map((server) => `https://localhost:${(server.address() as AddressInfo).port}/hook`),
    requests: () => requests,
    cut: () => {
      for (const server of servers) server.closeAllConnections();
    },
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise((resolve) => {
              server.closeAllConnections();
              server.close(resolve);
            }),
        ),
      ),
  };
}
