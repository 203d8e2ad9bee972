import { isDemoDelivery } from "@/features/demo/endpoint";
import { getDb } from "@/server/db/client";
import { demoRoute, json } from "../demo-route";

export const dynamic = "force-dynamic";

/**
 * The demo endpoint's receiver (staging only; used when the service is served over HTTPS): it checks
 * the signature like a partner's receiver should and acknowledges with 204. Nothing is stored here:
 * the delivery records the service keeps are what the page shows.
 */
export const POST = demoRoute(async (partner, request: Request) => {
  const raw = await request.text();
  const genuine = await isDemoDelivery(await getDb(), partner.owner_slug, request.headers.get("x-webhook-signature") ?? "", raw);
  return genuine ? new Response(null, { status: 204 }) : json(401, { status_code: 401, error: "Invalid webhook signature" });
});
