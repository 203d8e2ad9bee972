import { expect } from "vitest";
import { getDb } from "../../server/db/client";
import { grant, newClient, newOwner, type TestClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { completeProspectFields } from "../../test/samples";
import type { ProspectAnswer } from "../prospects/prospect-test-helpers";
import { createSource } from "../prospects/sources";
import { address } from "../roster/roster-test-helpers";
import { grantBuilding } from "./building-grants";
import { createManagedOwner, type Owner } from "./service";

export type Partner = Awaited<ReturnType<typeof partnerOn>>;

/**
 * One partner (API client) acting on a shared owner: its own source, and its calls through the real
 * handler. For a managed owner it is granted one building (`pms_one` / `pmsPropertyId`), and it loads
 * that building `bldg-<P>` with unit `unit-<P>` (pms unit `U-<P>`).
 */
export async function partnerOn(owner: Owner, pmsPropertyId?: string, client?: TestClient) {
  const db = await getDb();
  const partner = client ?? (await newClient());
  if (pmsPropertyId) await grantBuilding(db, { ownerSlug: owner.slug, clientId: partner.clientId, pmsType: "pms_one", pmsPropertyId });
  else if (!client) await grant(partner, owner.id);
  const token = await partner.token();
  const source = unique("src").replace("-", "_");
  await createSource(db, { code: source, clientId: partner.clientId });
  const base = `/api/partners/${owner.slug}`;
  const building = `bldg-${pmsPropertyId}`;
  const unit = `unit-${pmsPropertyId}`;
  if (pmsPropertyId) {
    const properties = await call<{ results: Array<{ action: string }> }>("POST", `${base}/properties`, {
      token,
      body: [
        {
          external_system_id: building,
          building_name: `Building ${pmsPropertyId}`,
          address: address(`${10 + Math.floor(Math.random() * 9000)} Main St`),
          pms_type: "pms_one",
          pms_property_id: pmsPropertyId,
        },
      ],
    });
    expect(properties.body.results[0].action).toBe("created");
    const units = await call<{ results: Array<{ action: string }> }>("POST", `${base}/units`, {
      token,
      body: [{ external_system_id: unit, property_external_id: building, name: "101", pms_unit_id: `U-${pmsPropertyId}` }],
    });
    expect(units.body.results[0].action).toBe("created");
  }
  return {
    client: partner,
    token,
    source,
    base,
    building,
    unit,
    /** A complete prospect of this partner's source, on its own building unless told otherwise. */
    prospect: (sourceProspectId = unique("p"), extra: Record<string, unknown> = {}) => ({
      ...completeProspectFields(source, sourceProspectId, building, unit),
      ...extra,
    }),
    postProspect: (prospect: unknown) => call<ProspectAnswer>("POST", `${base}/prospects`, { token, body: { prospect } }),
    getProspect: (sourceCode: string, sourceProspectId: string) =>
      call<ProspectAnswer>("GET", `${base}/prospects/${encodeURIComponent(sourceCode)}/${encodeURIComponent(sourceProspectId)}`, { token }),
    postMoveOut: (body: unknown) => call<{ status_code: number; move_out: { move_out_id: number } }>("POST", `${base}/move_outs`, { token, body }),
    getMoveOut: (id: number | string) => call("GET", `${base}/move_outs/${id}`, { token }),
    reset: (email: string) =>
      call<{ prospect_ids: number[] }>("DELETE", `/api/residents/reset?email=${encodeURIComponent(email)}&owner_slug=${owner.slug}`, { token }),
    register: async (url: string, events: string[]) => {
      const answer = await call<{ endpoint: { id: string } }>("POST", `${base}/webhooks/endpoints`, {
        token,
        body: { endpoint: { name: "hook", destination_url: url, events } },
      });
      expect(answer.status).toBe(201);
      return answer.body.endpoint.id;
    },
    endpoints: (path = "", method = "GET", body?: unknown) => call<Record<string, unknown>>(method, `${base}/webhooks/endpoints${path}`, { token, body }),
  };
}

/** A managed owner (`owner create-managed`) with two partners granted different buildings (`owner grant-building`). */
export async function managedOwnerWithTwoPartners() {
  const owner = await createManagedOwner(await getDb(), { name: unique("Managed"), externalOrgId: unique("org") });
  const a = await partnerOn(owner, `PA${unique("x").slice(2)}`);
  const b = await partnerOn(owner, `PB${unique("x").slice(2)}`);
  return { owner, a, b };
}

/** A partner-created owner that a second partner was also granted (`client grant`). */
export async function partnerOwnerWithTwoPartners() {
  const creator = await newClient();
  const owner = await newOwner(creator);
  const a = await partnerOn(owner, undefined, creator);
  const b = await partnerOn(owner);
  return { owner, a, b };
}

export const moveOutBody = (externalId = unique("mo")) => ({
  external_id: externalId,
  move_out_date: "2026-12-31",
  property: { address_line_one: "1 Main St", address_city: "Austin", address_state: "TX", address_zip: "78701" },
  residents: [{ role: "primary" as const, name: "Rita Renter" }],
});
