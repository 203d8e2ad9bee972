import { getConfig } from "../config";

/**
 * Response headers of the service's pages (decisions §15; docs/decisions.md "Hardening: request
 * bodies and page headers"). Console, docs and demo pages (and the home page) can never be framed;
 * enrollment pages keep their own framing rules (decisions §10 Framing) and take only the rest.
 */

/** Never framed, by any origin: CSP for today's browsers, `X-Frame-Options` for older ones. */
export const NO_FRAMING_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
});

/** Two years, the value HSTS preload lists ask for; subdomains of the service's host included. */
export const HSTS = "max-age=63072000; includeSubDomains";

/**
 * The headers every page answers whatever its framing rule: no content sniffing, the referrer cut
 * to the origin when leaving the site, and HSTS when the service's public address is HTTPS (over
 * plain HTTP a browser ignores it, and a local HTTP deployment must not be pinned to HTTPS).
 */
export function baseSecurityHeaders(publicBaseUrl: string): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  };
  if (publicBaseUrl.toLowerCase().startsWith("https:")) headers["Strict-Transport-Security"] = HSTS;
  return headers;
}

/** The headers of a page that must never be framed (console, docs, demo, home), under this process's configuration. */
export function pageSecurityHeaders(publicBaseUrl: string = getConfig().publicBaseUrl): Record<string, string> {
  return { ...baseSecurityHeaders(publicBaseUrl), ...NO_FRAMING_HEADERS };
}
