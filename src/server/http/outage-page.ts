import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "../config";
import { DATABASE_RETRY_AFTER_SECONDS, GATEWAY_MESSAGES } from "../errors";
import { baseSecurityHeaders } from "./security-headers";

/**
 * What a request Next.js would serve answers while the database is known to be down
 * (docs/decisions.md "Structure: one door into the gateways", Pages during a database outage):
 * 503 with `Retry-After`, as the gateways answer then, instead of the 500 a page would render
 * after its query failed. A browser gets a page in the app's own markup (`main.home`, as the
 * enrollment pages' error pages); anything else the gateways' JSON body. Never cached; framing
 * is not restricted (an embedded enrollment page shows the message in its frame).
 */
export function databaseOutagePage(req: IncomingMessage, res: ServerResponse): void {
  const html = (req.headers.accept ?? "").includes("text/html");
  const body = html ? PAGE : JSON.stringify({ status_code: 503, error: GATEWAY_MESSAGES.databaseUnavailable });
  res.writeHead(503, {
    ...baseSecurityHeaders(getConfig().publicBaseUrl),
    "Content-Type": html ? "text/html; charset=utf-8" : "application/json",
    "Cache-Control": "no-store",
    "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Partner Integration Service</title></head>
<body><main class="home" data-outage="database"><h1>Temporarily unavailable</h1><p>${GATEWAY_MESSAGES.databaseUnavailable}.</p></main></body>
</html>`;
