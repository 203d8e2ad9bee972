import type { AnyRouter } from "@trpc/server";
import { prospectPartner } from "../features/prospects/prospect-test-helpers";
import { createProvider } from "../features/webhooks/providers";
import { getDb } from "../server/db/client";
import type { Meta } from "../server/trpc/init";
import { grant, newClient } from "./factories";
import type { FuzzRoute, Json } from "./fuzz-cases";
import { call } from "./http";
import { completeProspectFields } from "./samples";

/** Routes of a router with their documented query parameters and request body (fuzz and adapter tests). */
type Procedure = { _def: { meta?: Meta } };

export function routesOf(router: AnyRouter, doc: Json): Array<{ meta: Meta; route: Omit<FuzzRoute, "pathValues" | "body"> & { bodySchema?: Json } }> {
  return Object.values(router._def.procedures as Record<string, Procedure>).flatMap(({ _def: { meta } }) => {
    if (!meta?.openapi) return [];
    const { method, path } = meta.openapi;
    const operation = ((doc.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    const parameters = (operation?.parameters ?? []) as Array<{ in: string; name: string }>;
    const requestBody = operation?.requestBody as { content: Record<string, { schema: Json }> } | undefined;
    return [
      {
        meta,
        route: {
          method,
          path,
          query: parameters.filter((p) => p.in === "query").map((p) => p.name),
          bodySchema: requestBody?.content["application/json"]?.schema,
        },
      },
    ];
  });
}

/** A partner with every scope, an owner with a roster, a prospect, an endpoint, a move-out, a provider and an ingestion client. */
export async function fixture() {
  const partner = await prospectPartner();
  const { owner, source, base, token, client } = partner;
  await partner.post(completeProspectFields(source, "p-1"));
  const endpoint = await call<{ endpoint: { id: string } }>("POST", `${base}/webhooks/endpoints`, {
    token,
    body: { endpoint: { name: "fuzz", destination_url: "https://localhost:9/hook", events: ["prospect.ready"] } },
  });
  const moveOut = await call<{ move_out: { move_out_id: number } }>("POST", `${base}/move_outs`, {
    token,
    body: {
      external_id: "mo-1",
      move_out_date: "2026-12-01",
      property: { address_line_one: "10 Main St", address_city: "Austin", address_state: "TX", address_zip: "78701" },
      residents: [{ role: "primary", name: "Rita Renter" }],
    },
  });
  const provider = `prov_${owner.slug.replaceAll("-", "_")}`.slice(0, 40);
  await (await getDb()).transaction((tx) => createProvider(tx, { code: provider, clientId: client.clientId, ownerSlugs: [owner.slug] }));
  const ingestion = await newClient({ gateway: "ingestion", partnerClientId: client.clientId });
  await grant(ingestion, owner.id);
  return {
    partner,
    ingestionToken: await ingestion.token(),
    pathValues: {
      owner_slug: owner.slug,
      source,
      source_prospect_id: "p-1",
      endpoint_id: endpoint.body.endpoint.id,
      provider,
      id: "", // by route, below
    },
    moveOutId: String(moveOut.body.move_out.move_out_id),
    endpointId: endpoint.body.endpoint.id,
  };
}

export /** Valid bodies where the generated sample would stop at the first check; other routes use the schema. */
function validBody(path: string, source: string, generated: unknown): unknown {
  if (path.endsWith("/prospects")) return { prospect: completeProspectFields(source, "p-1") };
  if (path.endsWith("/bank_accounts")) return [{ external_system_id: "ba-f", display_name: "Main", routing_number: "021000021", account_number: "12345" }];
  if (path.endsWith("/properties"))
    return [{ external_system_id: "b1", building_name: "Building One", address: { line_one: "10 Main St", city: "Austin", state: "TX", zip: "78701" } }];
  if (path.endsWith("/units")) return [{ external_system_id: "u1", property_external_id: "b1", name: "101" }];
  if (path === "/events")
    return { type: "prospect.upserted", source, source_prospect_id: "p-2", occurred_at: "2026-11-20T10:00:00Z", data: { first_name: "Rita" } };
  return generated;
}
