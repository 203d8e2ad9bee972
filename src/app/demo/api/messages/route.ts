import { listDemoRenterMessages } from "@/features/demo/renter-messages";
import { getDb } from "@/server/db/client";
import { demoRoute } from "../../demo-route";

export const dynamic = "force-dynamic";

/** The demo renters' messages, newest first (polled by the page). */
export const GET = demoRoute(async (partner) => ({ messages: await listDemoRenterMessages(await getDb(), partner.owner_slug, partner.source) }));
