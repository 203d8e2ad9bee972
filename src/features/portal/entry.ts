import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import type { NodeHandler } from "../../server/http/front-server";
import { baseSecurityHeaders } from "../../server/http/security-headers";
import { recordAudit } from "../audit/audit";
import { frameAncestorsHeader, NO_FRAMING } from "../enrollment/framing/frame-ancestors";
import { PORTAL_MESSAGES } from "./messages";
import { exchangePortalLink, PORTAL_COOKIE, PORTAL_ENTRY_PATH, PORTAL_SIGN_OUT_PATH, portalSessionOf, revokePortalSession } from "./session";

/**
 * `GET /portal/session/<token>`, the URL a portal session answers (decisions §16 Portal), mounted on
 * the door (src/composition/gateways.ts). A token that verifies, of a session not yet opened whose
 * client and grant are live, becomes the `/portal` cookie and a 303 to `/portal`, so the token leaves
 * the address bar; the link opens once (docs/decisions.md, "Second security review"). Any other answers
 * a page that says why (403 altered, unknown, already opened or no longer live; 410 expired). The token
 * never reaches a referrer (`Referrer-Policy: no-referrer`) nor a cache. `POST /portal/session/end`
 * (the portal's sign-out form) ends the cookie's session and clears the cookie.
 */
export const portalEntry: NodeHandler = async (req: IncomingMessage, res: ServerResponse) => {
  const config = getConfig();
  const headers: Record<string, string> = { ...baseSecurityHeaders(config.publicBaseUrl), "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" };
  const secure = config.publicBaseUrl.toLowerCase().startsWith("https:");
  const cookieWith = (value: string, maxAge: number) =>
    [`${PORTAL_COOKIE}=${value}`, "Path=/portal", `Max-Age=${maxAge}`, "HttpOnly", secure ? "SameSite=None; Secure" : "SameSite=Lax"].join("; ");
  if (req.method === "POST" && (req.url ?? "").split("?")[0] === PORTAL_SIGN_OUT_PATH) {
    req.resume();
    // Another site's page may not sign the portal out (the form is the portal's own, framed or not).
    if (req.headers["sec-fetch-site"] === "cross-site") {
      res.writeHead(403, { ...headers, "Content-Security-Policy": NO_FRAMING });
      return void res.end();
    }
    const cookie = cookieOf(req.headers.cookie);
    const ended = await (await getDb()).transaction(async (tx) => {
      const session = await portalSessionOf(tx, cookie);
      const id = await revokePortalSession(tx, cookie);
      if (session && id)
        await recordAudit(
          tx,
          { client: session.clientId, portalSession: id },
          { action: "portal_sessions.sign_out", subject: { type: "portal_session", id }, ownerId: session.owner.id },
        );
      return id;
    });
    res.writeHead(303, {
      ...headers,
      Location: ended ? "/portal?notice=signed_out" : "/portal",
      "Set-Cookie": cookieWith("", 0),
      "Content-Security-Policy": NO_FRAMING,
    });
    return void res.end();
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD", "Content-Security-Policy": NO_FRAMING });
    return void res.end();
  }
  const exchange = await exchangePortalLink(await getDb(), tokenOf(req.url ?? ""));
  if (!exchange.ok) {
    const expired = exchange.reason === "expired";
    const message = expired ? PORTAL_MESSAGES.linkExpired : exchange.reason === "used" ? PORTAL_MESSAGES.linkUsed : PORTAL_MESSAGES.linkInvalid;
    res.writeHead(expired ? 410 : 403, {
      ...headers,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `${NO_FRAMING}; default-src 'none'; style-src 'unsafe-inline'`,
    });
    const title = expired ? "Portal link expired" : exchange.reason === "used" ? "Portal link already used" : "Portal link not valid";
    return void res.end(req.method === "HEAD" ? undefined : refusalPage(title, message));
  }
  const { session, cookie } = exchange;
  const maxAge = Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
  // Framed in the partner's admin (a third-party context) the cookie must be SameSite=None, which
  // browsers accept only with Secure: over plain HTTP (local staging) it is Lax and not framed.
  res.writeHead(303, {
    ...headers,
    Location: "/portal",
    "Set-Cookie": cookieWith(cookie, maxAge),
    "Content-Security-Policy": frameAncestorsHeader(session.frameAncestors, []),
  });
  res.end();
};

/** The `/portal` cookie's value in a `Cookie` header. */
function cookieOf(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === PORTAL_COOKIE) return value.join("=");
  }
  return undefined;
}

function tokenOf(url: string): string | undefined {
  const path = url.split("?")[0];
  const rest = path.slice(PORTAL_ENTRY_PATH.length);
  if (!rest.startsWith("/") || rest.length < 2 || rest.indexOf("/", 1) !== -1) return undefined;
  return /^[A-Za-z0-9._-]+$/.test(rest.slice(1)) ? rest.slice(1) : undefined;
}

function refusalPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}h1{font-size:1.5rem}</style></head><body><main><h1>${title}</h1><p>${message}</p></main></body></html>`;
}
