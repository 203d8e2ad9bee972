import { partnerOpenApiDocument } from "@/composition/gateways";
import { pageSecurityHeaders } from "@/server/http/security-headers";

export const dynamic = "force-dynamic";

/** Machine-readable reference, no token needed (spec Endpoint table), with the docs' headers (decisions §15). */
export function GET(): Response {
  return Response.json(partnerOpenApiDocument(), { headers: { ...pageSecurityHeaders(), "Access-Control-Allow-Origin": "*" } });
}
