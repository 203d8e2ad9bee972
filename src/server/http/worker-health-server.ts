import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { errors } from "../errors";
import { serveMetrics } from "../observability/metrics";
import { restAnswerOf } from "./error-wire";
import { answerHealth } from "./health-routes";

/** A route of the worker's HTTP server: answers the request (its path matched exactly, query aside). */
export type WorkerRoute = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export type WorkerHealthServer = {
  /** Adds a route (e.g. `/metrics`) beside `/healthz` and `/readyz`. */
  addRoute: (pathname: string, route: WorkerRoute) => void;
  listen: (port: number) => Promise<void>;
  close: () => Promise<void>;
  server: http.Server;
};

/**
 * The small HTTP server of `npm run worker` on WORKER_HEALTH_PORT (decisions §14): `/healthz`,
 * `/readyz`, `/metrics` (as the web process serves it) and whatever routes are added; anything else 404. It stays up while the worker drains,
 * so readiness answers 503 "shutting down" until the process ends.
 */
export function createWorkerHealthServer(): WorkerHealthServer {
  const routes = new Map<string, WorkerRoute>();
  const server = http.createServer((req, res) => {
    if (answerHealth(req, res) || serveMetrics(req, res)) return;
    const route = routes.get((req.url ?? "/").split("?")[0]);
    if (route) {
      Promise.resolve(route(req, res)).catch(() => {
        if (!res.headersSent) answer(res, restAnswerOf(errors.internal(new Error("worker route failed"))));
        else res.destroy();
      });
      return;
    }
    answer(res, restAnswerOf(errors.notFound()));
  });
  return {
    server,
    addRoute: (pathname, route) => {
      routes.set(pathname, route);
    },
    listen: (port) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, () => resolve());
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(res: ServerResponse, { status, body }: { status: number; body: unknown }): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}
