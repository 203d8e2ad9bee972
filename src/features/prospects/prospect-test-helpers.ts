import { getDb } from "../../server/db/client";
import { newClient, newOwner, unique } from "../../test/factories";
import { call } from "../../test/http";
import { completeProspectFields } from "../../test/samples";
import { address } from "../roster/roster-test-helpers";
import { createSource } from "./sources";

export type ProspectAnswer = { status_code: number; prospect: Record<string, unknown> & { id: number; status: string; enrollment_url: string | null } };

/** A partner, its owner with a loaded roster (account, building `b1` with unit `u1`), and a source. */
export async function prospectPartner(
  options: { activate?: boolean; optionalIngestFields?: boolean; flow?: "embedded" | "expedited"; guarantorCapable?: boolean; requireSignature?: boolean } = {},
) {
  const client = await newClient({ requireSignature: options.requireSignature });
  const owner = await newOwner(client);
  const token = await client.token();
  const code = unique("src").replace("-", "_");
  await createSource(await getDb(), { code, clientId: client.clientId, flow: options.flow, optionalIngestFields: options.optionalIngestFields });
  const base = `/api/partners/${owner.slug}`;
  if (options.guarantorCapable) {
    await call("POST", "/api/partners/property_owners", { token, body: { external_org_id: owner.externalOrgId, guarantor_coverage_capable: true } });
  }
  await call("POST", `${base}/bank_accounts`, {
    token,
    body: [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "123456" }],
  });
  await call("POST", `${base}/properties`, { token, body: [{ external_system_id: "b1", building_name: "Building One", address: address("10 Main St") }] });
  await call("POST", `${base}/units`, { token, body: [{ external_system_id: "u1", property_external_id: "b1", name: "101" }] });
  if (options.activate !== false)
    await call("POST", "/api/partners/property_owners", { token, body: { external_org_id: owner.externalOrgId, purchase_flow_enabled: true } });
  const post = (prospect: unknown, headers?: Record<string, string>) =>
    call<ProspectAnswer>("POST", `${base}/prospects`, { token, body: { prospect }, headers });
  const get = (sourceProspectId: string, source = code) =>
    call<ProspectAnswer>("GET", `${base}/prospects/${encodeURIComponent(source)}/${encodeURIComponent(sourceProspectId)}`, { token });
  return { client, owner, token, source: code, base, post, get };
}

/** Every field the standard create payload needs for completeness. */
export function completeProspect(source: string, sourceProspectId = unique("p"), extra: Record<string, unknown> = {}) {
  return {
    ...completeProspectFields(source, sourceProspectId),
    ...extra,
  };
}
