/**
 * A path with broken percent-encoding (`/api/%ZZ`) is refused with a 400 in the gateways' body
 * shape before any handler decodes it (decisions: Requests and errors): by the gateways themselves
 * (`./rest-handler.ts`, documented on every route), by the door (`./front-server.ts`) on every other
 * path, and by the proxy (src/proxy.ts) on the paths Next.js serves.
 */
export const MALFORMED_PATH = "Request path is not valid percent-encoding";

export function isDecodablePath(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
