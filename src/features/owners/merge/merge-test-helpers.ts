import { expect } from "vitest";
import { getDb } from "../../../server/db/client";
import { grant, newClient, newOwner, type TestClient, unique } from "../../../test/factories";
import { call } from "../../../test/http";
import { completeProspectFields } from "../../../test/samples";
import { createSource } from "../../prospects/sources";
import { address, bankAccountItem } from "../../roster/roster-test-helpers";

/** A partner's calls on one owner slug through the real Partner API handler. */
export function partnerCalls(token: string, slug: string, source: string) {
  const base = `/api/partners/${slug}`;
  return {
    post: (collection: "bank_accounts" | "properties" | "units", body: unknown) =>
      call<{ results: Array<{ action: string }> }>("POST", `${base}/${collection}`, { token, body }),
    prospect: (id: string, building = "b1", unit = "u1") =>
      call<{ status_code: number; prospect: Record<string, unknown> }>("POST", `${base}/prospects`, {
        token,
        body: { prospect: completeProspectFields(source, id, building, unit) },
      }),
    getProspect: (id: string) => call<{ prospect: Record<string, unknown> }>("GET", `${base}/prospects/${source}/${id}`, { token }),
  };
}

/**
 * A partner-created owner with a roster (bank account `ba-1`, building `b1` with unit `u1`, an
 * extra building `b-<tag>`), a source, prospects and a webhook endpoint, loaded through the API.
 */
export async function loadedOwner(client: TestClient, tag: string, prospectIds: string[]) {
  const db = await getDb();
  const owner = await newOwner(client);
  const token = await client.token();
  const source = unique("src").replace("-", "_");
  await createSource(db, { code: source, clientId: client.clientId });
  const api = partnerCalls(token, owner.slug, source);
  const endpoint = await call<{ endpoint: { id: string } }>("POST", `/api/partners/${owner.slug}/webhooks/endpoints`, {
    token,
    body: { endpoint: { name: `hook ${tag}`, destination_url: "https://localhost:9/hook", events: ["prospect.created"] } },
  });
  expect(endpoint.status).toBe(201);
  expect((await api.post("bank_accounts", [bankAccountItem("ba-1")])).status).toBe(200);
  const buildings = [
    { external_system_id: "b1", building_name: `Building one ${tag}`, address: address(`${tag.length + 100} Oak St`) },
    { external_system_id: `b-${tag}`, building_name: `Building ${tag}`, address: address("7 Elm St") },
  ];
  expect((await api.post("properties", buildings)).body.results.map((r) => r.action)).toEqual(["created", "created"]);
  expect((await api.post("units", [{ external_system_id: "u1", property_external_id: "b1", name: "101" }])).body.results[0].action).toBe("created");
  for (const id of prospectIds) expect((await api.prospect(id)).status).toBe(200);
  return { owner, token, source, api, endpointId: endpoint.body.endpoint.id };
}

/** A duplicate (created by partner P) and a survivor (created by partner Q, P granted too) that collide. */
export async function duplicatePair() {
  const p = await newClient();
  const q = await newClient();
  const duplicate = await loadedOwner(p, "dup", ["p-only", "shared"]);
  const survivor = await loadedOwner(q, "surv", []);
  await grant(p, survivor.owner.id);
  // P's prospect "shared" under the survivor too: the same (source, source_prospect_id) in both.
  const onSurvivor = partnerCalls(duplicate.token, survivor.owner.slug, duplicate.source);
  expect((await onSurvivor.prospect("shared")).status).toBe(200);
  return { p, q, duplicate, survivor };
}
