import { readDemoProspect } from "@/features/demo/partner-calls";
import { demoRoute, partnerGateway } from "../../../demo-route";

export const dynamic = "force-dynamic";

/** The prospect as the Partner API answers it (status, `enrollment_url`, reasons). */
export const GET = demoRoute(async (partner, _request: Request, { params }: { params: Promise<{ id: string }> }) =>
  readDemoProspect(partnerGateway, partner, (await params).id),
);
