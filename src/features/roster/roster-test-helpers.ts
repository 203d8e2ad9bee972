import { and, eq } from "drizzle-orm";
import { getDb } from "../../server/db/client";
import { newClient, newOwner, type TestClient } from "../../test/factories";
import { call } from "../../test/http";
import { normalizeStreetLine } from "./address";
import { nameKeyOf } from "./match-building";
import { properties } from "./roster.table";

export type CollectionAnswer = {
  status_code: number;
  results: Array<{ external_system_id: string | null; action: string; errors?: Record<string, string[]>; [key: string]: unknown }>;
  meta: { created: number; updated: number; failed: number };
};

/** A partner with a fresh owner, posting to the owner's onboarding collections. */
export async function onboardingPartner(options: { guarantorCapable?: boolean } = {}) {
  const client: TestClient = await newClient();
  const owner = await newOwner(client);
  if (options.guarantorCapable) {
    const { propertyOwners } = await import("../owners/owners.table");
    const { eq } = await import("drizzle-orm");
    await (await getDb()).update(propertyOwners).set({ guarantorCoverageCapable: true }).where(eq(propertyOwners.id, owner.id));
  }
  const token = await client.token();
  const post = (collection: "bank_accounts" | "properties" | "units", body: unknown) =>
    call<CollectionAnswer>("POST", `/api/partners/${owner.slug}/${collection}`, { token, body });
  return { client, owner, token, post };
}

export const address = (lineOne: string, zip = "78701") => ({ line_one: lineOne, city: "Austin", state: "TX", zip });

/** A building the service created itself (no partner identifier), as for synced or managed owners. */
export async function serviceBuilding(
  ownerId: number,
  fields: { name: string; line: string; zip?: string; pmsType?: "pms_one" | "pms_two"; pmsPropertyId?: string },
) {
  const [row] = await (await getDb())
    .insert(properties)
    .values({
      ownerId,
      buildingName: fields.name,
      nameKey: nameKeyOf(fields.name),
      streetKey: normalizeStreetLine(fields.line),
      addressLineOne: fields.line,
      city: "Austin",
      state: "TX",
      zip: fields.zip ?? "78701",
      pmsType: fields.pmsType ?? null,
      pmsPropertyId: fields.pmsPropertyId ?? null,
    })
    .returning();
  return row;
}

/** The stored building the owner's partner identifier names, or undefined. */
export async function building(ownerId: number, externalId: string) {
  const [row] = await (await getDb())
    .select()
    .from(properties)
    .where(and(eq(properties.ownerId, ownerId), eq(properties.externalSystemId, externalId)));
  return row;
}

/** A valid bank account item (spec Bank account); `extra` overrides or adds fields. */
export const bankAccountItem = (id: string, extra: Record<string, unknown> = {}) => ({
  external_system_id: id,
  display_name: `Operating ${id}`,
  routing_number: "021000021",
  account_number: "000123456789",
  ...extra,
});
