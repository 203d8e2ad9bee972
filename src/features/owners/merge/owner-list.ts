import { asc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Tx } from "../../../server/db/client";
import { propertyOwners } from "../owners.table";

export type OwnerListEntry = { owner_slug: string; external_org_id: string; name: string; managed: boolean; merged_into?: string };

/** decisions §4 `owner list`: every owner, a merged one with the slug of its survivor (`merged_into`). */
export async function listOwners(tx: Tx): Promise<OwnerListEntry[]> {
  const survivor = alias(propertyOwners, "survivor");
  const rows = await tx
    .select({ owner: propertyOwners, mergedInto: survivor.slug })
    .from(propertyOwners)
    .leftJoin(survivor, eq(survivor.id, propertyOwners.mergedIntoId))
    .orderBy(asc(propertyOwners.id));
  return rows.map(({ owner, mergedInto }) => ({
    owner_slug: owner.slug,
    external_org_id: owner.externalOrgId,
    name: owner.name,
    managed: owner.managed,
    ...(mergedInto ? { merged_into: mergedInto } : {}),
  }));
}
