import type { NextRequest } from "next/server";
import { NextResponse } from "next/server";
import { framingHeadersFor } from "./features/enrollment/framing/framing-headers";
import { getConfig } from "./server/config";
import { baseSecurityHeaders, NO_FRAMING_HEADERS } from "./server/http/security-headers";

/**
 * Runs before routing (Next.js 16 "proxy", Node.js runtime).
 * - Next.js decodes dynamic path segments itself and answers a path with broken percent-encoding
 *   (`/api/%ZZ`) with a bare 500 before any route runs: such a request is refused here with a 400
 *   in the gateways' body shape (decisions: Requests and errors).
 * - Pages get their security headers here, since a page cannot set response headers (decisions
 *   §15): never framed, no sniffing, the referrer cut to the origin, HSTS over HTTPS. Enrollment
 *   pages keep their own framing (decisions §10 Framing): the owner's `frame-ancestors` on embedded
 *   pages, `'none'` plus `X-Frame-Options: DENY` on hosted ones. The gateways answer their own
 *   headers (their docs and OpenAPI routes included).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const raw = new URL(request.url).pathname;
  if (!isDecodable(raw)) {
    return NextResponse.json(
      { status_code: 400, error: MALFORMED_PATH },
      { status: 400, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
    );
  }
  if (GATEWAY_PATH.test(raw)) return NextResponse.next();
  const headers = { ...baseSecurityHeaders(getConfig().publicBaseUrl), ...((await framingHeadersFor(raw)) ?? NO_FRAMING_HEADERS) };
  const response = NextResponse.next();
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Paths of the two gateways, which the proxy sees only when they hold a `%`. */
const GATEWAY_PATH = /^\/(?:api|ingest)(?:\/|$)/;

export const MALFORMED_PATH = "Request path is not valid percent-encoding";

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Gateway paths without any `%` cannot carry broken percent-encoding and get no framing headers:
 * they skip the proxy, whose pass through Next.js's middleware machinery was the largest cost a
 * partner request added to its domain work (docs/decisions.md, "Performance: API throughput": web-process CPU per prospect POST
 * about 5.4 → 4.1 ms, with the REST adapter's signal change). Any gateway path with a `%` still
 * comes here (e2e/malformed-paths.spec.ts).
 */
export const config = { matcher: "/((?!_next/static|_next/image|(?:api|ingest)/[^%]*$).*)" };
