import http from "node:http";
import { logger } from "../log";
import { serveMetrics } from "./metrics";

/**
 * `npm run worker`'s own HTTP server on WORKER_HEALTH_PORT (shared decisions §14): `/metrics`, as
 * the web process serves it; anything else 404.
 */
export function startWorkerServer(port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (serveMetrics(req, res)) return;
    res.writeHead(404, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify({ status_code: 404, error: "Not found" }));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      logger().info({ port }, "worker HTTP server listening");
      resolve(server);
    });
  });
}
