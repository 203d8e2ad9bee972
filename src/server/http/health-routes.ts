import type { IncomingMessage, ServerResponse } from "node:http";
import { LIVENESS, readiness } from "../health";

/**
 * `GET /healthz` and `GET /readyz` (decisions §14, Health), answered by the web process's front
 * server before Next.js and by the worker's health server: no framework, no request log. Returns
 * false for any other request.
 */
export function answerHealth(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = (req.url ?? "/").split("?")[0];
  if (pathname === "/healthz") {
    send(res, 200, LIVENESS);
    return true;
  }
  if (pathname !== "/readyz") return false;
  readiness().then(
    (report) => send(res, report.status === "ok" ? 200 : 503, report),
    () => send(res, 503, { status: "unavailable" }),
  );
  return true;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}
