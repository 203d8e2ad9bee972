import { partnerOpenApiDocument } from "@/composition/gateways";

export const dynamic = "force-dynamic";

/** Machine-readable reference, no token needed (spec Endpoint table). */
export function GET(): Response {
  return Response.json(partnerOpenApiDocument(), { headers: { "Access-Control-Allow-Origin": "*" } });
}
