import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "../config";
import { LIVENESS, type Readiness, readiness } from "../health";
import { logger } from "../log";
import { bearerMatches } from "../observability/metrics";

/**
 * `GET /healthz` and `GET /readyz` (decisions §14, Health), answered by the web process's front
 * server before Next.js and by the worker's health server: no framework, no request log. Returns
 * false for any other request. Publicly `/readyz` answers only `{status}`: its reasons repeat the
 * database's error text (addresses, user names), so they go to the log and to a caller presenting
 * `METRICS_TOKEN` as a bearer token, as `/metrics` asks (docs/decisions.md, "Second security review").
 */
export function answerHealth(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = (req.url ?? "/").split("?")[0];
  if (pathname === "/healthz") {
    send(res, 200, LIVENESS);
    return true;
  }
  if (pathname !== "/readyz") return false;
  const token = getConfig().metricsToken;
  const trusted = token !== undefined && token !== "" && bearerMatches(req.headers.authorization, token);
  readiness().then(
    (report) => {
      logReasons(report);
      send(res, report.status === "ok" ? 200 : 503, trusted ? report : { status: report.status });
    },
    () => send(res, 503, { status: "unavailable" }),
  );
  return true;
}

/** The reasons of a process not ready, logged once each time they change (probes come every second). */
let lastLogged = "";
function logReasons(report: Readiness): void {
  const reasons = report.status === "ok" ? "" : JSON.stringify(report.checks);
  if (reasons === lastLogged) return;
  lastLogged = reasons;
  if (reasons) logger().warn({ checks: report.checks }, "not ready");
  else logger().info("ready");
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}
