import { NO_FRAMING_HEADERS, pageSecurityHeaders } from "@/server/http/security-headers";

// Per request: HSTS follows the running process's PUBLIC_BASE_URL, not the build's.
export const dynamic = "force-dynamic";

/**
 * Browsable reference (spec Endpoint table), rendered by Swagger UI served from our own origin:
 * no CDN, so it works offline, and the validator badge (an outbound call) is off.
 */
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

/** Decisions §15: a docs page is never framed; its own content policy carries `frame-ancestors 'none'`. */
export function GET(): Response {
  return new Response(PAGE, {
    headers: {
      ...pageSecurityHeaders(),
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `${CONTENT_POLICY}; ${NO_FRAMING_HEADERS["Content-Security-Policy"]}`,
    },
  });
}
