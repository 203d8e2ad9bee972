import { handlePartnerApi } from "@/composition/gateways";
import { isDemoEnabled } from "@/features/demo/availability";
import { type DemoPartner, readDemoPartner } from "@/features/demo/credentials";
import { getConfig } from "@/server/config";

/** The gateway the demo calls: the very handler `/api/*` serves (docs/decisions.md, Demo page). */
export const partnerGateway = handlePartnerApi;

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * Every /demo route: 404 in production (decisions §13), 503 when no demo partner is seeded, else
 * the handler with the demo partner.
 */
export function demoRoute<Args extends unknown[]>(handler: (partner: DemoPartner, ...args: Args) => Promise<unknown>) {
  return async (...args: Args): Promise<Response> => {
    if (!isDemoEnabled()) return json(404, { status_code: 404, error: "Not found" });
    const partner = readDemoPartner(getConfig().dataDir);
    if (!partner) return json(503, { status_code: 503, error: "No demo partner is seeded (start the service with npm start and SEED_DEMO=1)" });
    const result = await handler(partner, ...args);
    return result instanceof Response ? result : json(200, result);
  };
}

export { json };
