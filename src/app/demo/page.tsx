import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { isDemoEnabled } from "@/features/demo/availability";
import { readDemoPartner } from "@/features/demo/credentials";
import { demoEndpointDestination, UNREACHABLE_DEMO_DESTINATION } from "@/features/demo/endpoint";
import { framingPlan } from "@/features/demo/origins";
import { DEMO_SCENARIOS } from "@/features/demo/scenarios";
import { getConfig } from "@/server/config";
import { DemoConsole } from "./demo-console";
import "./demo.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "Embedded enrollment demo" };

/**
 * decisions §13: a partner's developer or an account manager sees the embedded flow work: a demo
 * renter pushed through the Partner API, its `enrollment_url` framed from another origin, the
 * frame's messages and the demo owner's webhook deliveries. Staging only.
 */
export default async function DemoPage() {
  if (!isDemoEnabled()) notFound();
  const config = getConfig();
  const partner = readDemoPartner(config.dataDir);
  const incoming = await headers();
  const host = incoming.get("x-forwarded-host") ?? incoming.get("host") ?? new URL(config.publicBaseUrl).host;
  const proto = incoming.get("x-forwarded-proto") ?? new URL(config.publicBaseUrl).protocol.replace(":", "");
  const plan = framingPlan(`${proto}://${host}`, config.enrollmentBaseUrl);
  return (
    <main className="demo">
      <header className="demo-intro">
        <h1>Embedded enrollment demo</h1>
        <p>
          Push a demo renter through the Partner API, watch the embedded flow in a frame, and see what it tells the page and your webhook endpoints. Staging
          only: payments are simulated (card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined).
        </p>
      </header>
      {partner ? (
        <DemoConsole
          partner={{ ownerSlug: partner.owner_slug, source: partner.source, clientId: partner.client_id }}
          scenarios={DEMO_SCENARIOS.filter((scenario) => scenario.id !== "guarantee" || partner.guarantee_property_external_id).map(({ id, label, hint }) => ({
            id,
            label,
            hint,
          }))}
          plan={plan}
          receiver={{
            destination: demoEndpointDestination(config.publicBaseUrl),
            reachable: demoEndpointDestination(config.publicBaseUrl) !== UNREACHABLE_DEMO_DESTINATION,
          }}
        />
      ) : (
        <p role="status" className="demo-panel">
          No demo partner is seeded on this instance. Start the service with <code>npm start</code> (the demo seed runs unless <code>SEED_DEMO=0</code>).
        </p>
      )}
    </main>
  );
}
