import type { NextRequest } from "next/server";
import { NextResponse } from "next/server";

/**
 * Runs before routing (Next.js 16 "proxy"). Next.js decodes dynamic path segments itself and
 * answers a path with broken percent-encoding (`/api/%ZZ`) with a bare 500 before any route runs:
 * such a request is refused here with a 400 in the gateways' body shape (decisions: Requests and
 * errors). Every other request passes untouched.
 */
export function proxy(request: NextRequest): NextResponse {
  const raw = new URL(request.url).pathname;
  if (isDecodable(raw)) return NextResponse.next();
  return NextResponse.json(
    { status_code: 400, error: MALFORMED_PATH },
    { status: 400, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
  );
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

export const config = { matcher: "/((?!_next/static|_next/image).*)" };
