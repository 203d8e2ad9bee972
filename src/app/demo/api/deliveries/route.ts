import { listDemoDeliveries } from "@/features/demo/activity";
import { getDb } from "@/server/db/client";
import { demoRoute } from "../../demo-route";

export const dynamic = "force-dynamic";

/** The demo owner's newest webhook deliveries (polled every second by the page). */
export const GET = demoRoute(async (partner) => ({ deliveries: await listDemoDeliveries(await getDb(), partner.owner_slug) }));
