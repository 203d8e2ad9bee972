import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { NodeHandler } from "./front-server";
import { NO_FRAMING_HEADERS, pageSecurityHeaders } from "./security-headers";

/**
 * The Partner API's reference, no token needed (spec Endpoint table): `/api/openapi.json`, the
 * browsable page `/api/docs` rendered by Swagger UI served from our own origin (no CDN, so it works
 * offline; the validator badge, an outbound call, is off) and its files under `/api/docs/assets/`.
 * Mounted on the door before the gateway (src/composition/gateways.ts). Headers per request: HSTS
 * follows the running process's PUBLIC_BASE_URL (decisions §15).
 */
export function apiDocs(document: () => object): { openApiDocument: NodeHandler; page: NodeHandler; assets: NodeHandler } {
  return {
    /** Machine-readable reference with the docs' headers, readable from any origin. */
    openApiDocument: readOnly(async (req, res) => {
      send(req, res, 200, { ...pageSecurityHeaders(), "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" }, JSON.stringify(document()));
    }),
    /** Decisions §15: a docs page is never framed; its own content policy carries `frame-ancestors 'none'`. */
    page: readOnly(async (req, res) => {
      send(
        req,
        res,
        200,
        {
          ...pageSecurityHeaders(),
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": `${CONTENT_POLICY}; ${NO_FRAMING_HEADERS["Content-Security-Policy"]}`,
        },
        PAGE,
      );
    }),
    /** Swagger UI's files, read from the installed package (no copy in the repository, no CDN). */
    assets: readOnly(async (req, res) => {
      const file = (req.url ?? "").split("?")[0].slice(ASSETS_PATH.length);
      const headers = pageSecurityHeaders();
      if (file === "docs-init.js") return send(req, res, 200, { ...headers, "Content-Type": "text/javascript; charset=utf-8" }, INIT);
      const type = ASSETS[file];
      if (!type) return send(req, res, 404, { ...headers, "Content-Type": "application/json" }, JSON.stringify({ status_code: 404, error: "Not found" }));
      const body = await readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
      send(req, res, 200, { ...headers, "Content-Type": type, "Cache-Control": "public, max-age=86400" }, body);
    }),
  };
}

const ASSETS_PATH = "/api/docs/assets/";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
<style>body{margin:0} .topbar{display:none}</style>
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/docs-init.js"></script>
</body>
</html>`;

const CONTENT_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

const INIT = `window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  defaultModelsExpandDepth: 0,
});`;

/** GET and HEAD only, as a Next.js route exporting `GET` answered: anything else is 405. */
function readOnly(handler: NodeHandler): NodeHandler {
  return async (req, res) => {
    if (req.method === "GET" || req.method === "HEAD") return handler(req, res);
    res.writeHead(405, { Allow: "GET, HEAD", "Cache-Control": "no-store" });
    res.end();
  };
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  res.writeHead(status, { ...headers, "Content-Length": String(Buffer.byteLength(body)) });
  res.end(req.method === "HEAD" ? undefined : body);
}
