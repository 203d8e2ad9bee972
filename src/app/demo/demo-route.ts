import { isDemoEnabled } from "@/features/demo/availability";
import { type DemoPartner, readDemoPartner } from "@/features/demo/credentials";
import type { PartnerGateway } from "@/features/demo/partner-calls";
import { getConfig } from "@/server/config";

/**
 * The gateway the demo calls: this process's own door over loopback HTTP, as any partner reaches
 * `/api/*` (docs/decisions.md, Demo page; "Structure: one door into the gateways": a page never
 * holds a second instance of the gateway).
 */
export const partnerGateway: PartnerGateway = async (request) => {
  const { pathname, search } = new URL(request.url);
  const body = request.body ? await request.text() : undefined;
  return fetch(`http://127.0.0.1:${getConfig().port}${pathname}${search}`, { method: request.method, headers: request.headers, body });
};

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
