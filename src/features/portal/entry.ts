import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import type { NodeHandler } from "../../server/http/front-server";
import { baseSecurityHeaders } from "../../server/http/security-headers";
import { frameAncestorsHeader, NO_FRAMING } from "../enrollment/framing/frame-ancestors";
import { PORTAL_MESSAGES } from "./messages";
import { PORTAL_COOKIE, PORTAL_ENTRY_PATH, portalSessionOf, verifyPortalToken } from "./session";

/**
 * `GET /portal/session/<token>`, the URL a portal session answers (decisions §16 Portal), mounted on
 * the door (src/composition/gateways.ts). A token that verifies, of a client still active and still
 * granted the owner, becomes the `/portal` cookie and a 303 to `/portal`, so the token leaves the
 * address bar; any other answers a page that says why (403 altered or unknown, 410 expired). The
 * token never reaches a referrer (`Referrer-Policy: no-referrer`) nor a cache.
 */
export const portalEntry: NodeHandler = async (req: IncomingMessage, res: ServerResponse) => {
  const config = getConfig();
  const headers: Record<string, string> = { ...baseSecurityHeaders(config.publicBaseUrl), "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD", "Content-Security-Policy": NO_FRAMING });
    return void res.end();
  }
  const token = tokenOf(req.url ?? "");
  const session = token ? await portalSessionOf(await getDb(), token) : undefined;
  if (!session) {
    const check = verifyPortalToken(token);
    const expired = !check.ok && check.reason === "expired";
    const message = expired ? PORTAL_MESSAGES.linkExpired : PORTAL_MESSAGES.linkInvalid;
    res.writeHead(expired ? 410 : 403, {
      ...headers,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `${NO_FRAMING}; default-src 'none'; style-src 'unsafe-inline'`,
    });
    return void res.end(req.method === "HEAD" ? undefined : refusalPage(expired ? "Portal link expired" : "Portal link not valid", message));
  }
  const secure = config.publicBaseUrl.toLowerCase().startsWith("https:");
  const maxAge = Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
  // Framed in the owner's admin (a third-party context) the cookie must be SameSite=None, which
  // browsers accept only with Secure: over plain HTTP (local staging) it is Lax and not framed.
  const cookie = [`${PORTAL_COOKIE}=${token}`, "Path=/portal", `Max-Age=${maxAge}`, "HttpOnly", secure ? "SameSite=None; Secure" : "SameSite=Lax"].join("; ");
  res.writeHead(303, {
    ...headers,
    Location: "/portal",
    "Set-Cookie": cookie,
    "Content-Security-Policy": frameAncestorsHeader(session.owner.embeddedFrameAncestors, []),
  });
  res.end();
};

function tokenOf(url: string): string | undefined {
  const path = url.split("?")[0];
  const rest = path.slice(PORTAL_ENTRY_PATH.length);
  if (!rest.startsWith("/") || rest.length < 2 || rest.indexOf("/", 1) !== -1) return undefined;
  return /^[A-Za-z0-9._-]+$/.test(rest.slice(1)) ? rest.slice(1) : undefined;
}

function refusalPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}h1{font-size:1.5rem}</style></head><body><main><h1>${title}</h1><p>${message}</p></main></body></html>`;
}
