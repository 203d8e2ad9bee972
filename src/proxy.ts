import type { NextRequest } from "next/server";
import { NextResponse } from "next/server";
import { accountStripePageNonce } from "./features/account/stripe-pages";
import { framingHeadersFor } from "./features/enrollment/framing/framing-headers";
import { payStepDirectives, payStepNonce } from "./features/enrollment/framing/pay-step-csp";
import { portalFramingHeadersFor } from "./features/portal/framing";
import { PORTAL_COOKIE } from "./features/portal/session";
import { getConfig } from "./server/config";
import { isDecodablePath, MALFORMED_PATH } from "./server/http/malformed-path";
import { baseSecurityHeaders, NO_FRAMING_HEADERS } from "./server/http/security-headers";

/**
 * Runs before routing (Next.js 16 "proxy", Node.js runtime).
 * - Next.js decodes dynamic path segments itself and answers a path with broken percent-encoding
 *   (`/api/%ZZ`) with a bare 500 before any route runs: such a request is refused here with a 400
 *   in the gateways' body shape (decisions: Requests and errors).
 * - Pages get their security headers here, since a page cannot set response headers (decisions
 *   §15): never framed, no sniffing, the referrer cut to the origin, HSTS over HTTPS. Enrollment
 *   pages keep their own framing (decisions §10 Framing): the owner's `frame-ancestors` on embedded
 *   pages, `'none'` plus `X-Frame-Options: DENY` on hosted ones. Portal pages (decisions §16 Portal)
 *   take the frame-ancestors of their session's owner (docs/decisions.md, "Partner developer: portal"). The gateways answer their own
 *   headers (their docs and OpenAPI routes included).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const raw = new URL(request.url).pathname;
  if (!isDecodablePath(raw)) {
    return NextResponse.json(
      { status_code: 400, error: MALFORMED_PATH },
      { status: 400, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
    );
  }
  if (GATEWAY_PATH.test(raw)) return NextResponse.next();
  const framing = (await framingHeadersFor(raw)) ?? (await portalFramingHeadersFor(raw, request.cookies.get(PORTAL_COOKIE)?.value)) ?? NO_FRAMING_HEADERS;
  const headers: Record<string, string> = { ...baseSecurityHeaders(getConfig().publicBaseUrl), ...framing };
  // decisions §18: Stripe pages (the pay step, the account's pay and card pages) add Stripe.js's sources,
  // with a nonce Next.js puts on its scripts.
  const nonce = (await payStepNonce(raw, new URL(request.url).searchParams)) ?? accountStripePageNonce(raw);
  let response = NextResponse.next();
  if (nonce) {
    const policy = [headers["Content-Security-Policy"], payStepDirectives(nonce)].filter(Boolean).join("; ");
    headers["Content-Security-Policy"] = policy;
    const forwarded = new Headers(request.headers);
    forwarded.set("Content-Security-Policy", policy);
    response = NextResponse.next({ request: { headers: forwarded } });
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Paths of the two gateways, which the proxy sees only when they hold a `%`. */
const GATEWAY_PATH = /^\/(?:api|ingest)(?:\/|$)/;

export { MALFORMED_PATH };

/**
 * Gateway paths never reach Next.js: the door (src/server/http/front-server.ts) mounts `/api` and
 * `/ingest` by prefix, and the gateways refuse broken percent-encoding themselves
 * (e2e/malformed-paths.spec.ts). The matcher still leaves them out, as it leaves out static files.
 */
export const config = { matcher: "/((?!_next/static|_next/image|(?:api|ingest)/[^%]*$).*)" };
