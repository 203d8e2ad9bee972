import type { NextRequest } from "next/server";
import { NextResponse } from "next/server";
import { framingHeadersFor } from "./features/enrollment/framing/framing-headers";

/**
 * Runs before routing (Next.js 16 "proxy", Node.js runtime).
 * - Next.js decodes dynamic path segments itself and answers a path with broken percent-encoding
 *   (`/api/%ZZ`) with a bare 500 before any route runs: such a request is refused here with a 400
 *   in the gateways' body shape (decisions: Requests and errors).
 * - Enrollment pages get their framing headers here, since a page cannot set response headers
 *   (decisions §10 Framing): the owner's `frame-ancestors` on embedded pages, `'none'` plus
 *   `X-Frame-Options: DENY` on hosted ones.
 * Every other request passes untouched.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const raw = new URL(request.url).pathname;
  if (!isDecodable(raw)) {
    return NextResponse.json(
      { status_code: 400, error: MALFORMED_PATH },
      { status: 400, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
    );
  }
  const framing = await framingHeadersFor(raw);
  if (!framing) return NextResponse.next();
  const response = NextResponse.next();
  for (const [name, value] of Object.entries(framing)) response.headers.set(name, value);
  return response;
}

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
 * partner request added to its domain work (issue 9 item 16: web-process CPU per prospect POST
 * about 5.4 → 4.1 ms, with the REST adapter's signal change). Any gateway path with a `%` still
 * comes here (e2e/malformed-paths.spec.ts).
 */
export const config = { matcher: "/((?!_next/static|_next/image|(?:api|ingest)/[^%]*$).*)" };
