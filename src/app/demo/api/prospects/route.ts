import { listDemoProspects } from "@/features/demo/activity";
import { createDemoProspect } from "@/features/demo/partner-calls";
import { isDemoScenario } from "@/features/demo/scenarios";
import { getDb } from "@/server/db/client";
import { demoRoute, json, partnerGateway } from "../../demo-route";

export const dynamic = "force-dynamic";

/** The demo page's earlier renters, to pick one again. */
export const GET = demoRoute(async (partner) => ({ prospects: await listDemoProspects(await getDb(), partner.owner_slug, partner.source) }));

/** A new renter of the chosen scenario, pushed through the Partner API as the demo partner. */
export const POST = demoRoute(async (partner, request: Request) => {
  // A JSON body only: a plain cross-site form cannot create prospects.
  if (!request.headers.get("content-type")?.startsWith("application/json")) return json(415, { status_code: 415, error: "Send JSON" });
  const body = (await request.json().catch(() => null)) as { scenario?: unknown } | null;
  if (!isDemoScenario(body?.scenario)) return json(422, { status_code: 422, error: "Choose a scenario" });
  return createDemoProspect(partnerGateway, partner, body.scenario);
});
