import { and, asc, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { apiClients } from "../../auth/clients.table";
import { properties } from "../../roster/roster.table";
import { grantBuilding } from "../building-grants";
import { ownerBuildingGrants, propertyOwners } from "../owners.table";
import { findOwnerBySlugExactly } from "../service";
import { buildingGrantInput, pmsType } from "./building-grants.inputs";

/**
 * Building grants of managed owners from the console (decisions §4 `owner grant-building`): a
 * partner reaches only the named buildings (PMS pairs) of a managed owner. Each change is audited.
 */

const M = {
  ownerNotFound: (slug: string) => `No owner ${slug}`,
  ownerNotManaged: (slug: string) => `Owner ${slug} is not a managed owner; grant the whole owner on the client's page`,
  ownerMerged: (slug: string) => `Owner ${slug} was merged into another owner; grant buildings of the survivor`,
  clientNotFound: (clientId: string) => `No active client ${clientId}`,
  grantNotFound: "Building grant not found",
};

export const buildingGrantSearchInput = z.object({
  owner_slug: z.string().trim().max(200).optional(),
  client_id: z.string().trim().max(100).optional(),
});
export { buildingGrantInput };
export const buildingGrantRow = z.object({
  id: z.number().int(),
  owner_slug: z.string(),
  owner_name: z.string(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  pms_type: pmsType,
  pms_property_id: z.string(),
  /** The owner's building with this PMS pair, when one has been loaded. */
  building: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export const buildingGrantResult = z.object({ grant: buildingGrantRow, changed: z.boolean() });

function selectRows(db: Tx) {
  return db
    .select({
      grant: ownerBuildingGrants,
      ownerSlug: propertyOwners.slug,
      ownerName: propertyOwners.name,
      clientName: apiClients.name,
      buildingId: properties.id,
      buildingName: properties.buildingName,
    })
    .from(ownerBuildingGrants)
    .innerJoin(propertyOwners, eq(propertyOwners.id, ownerBuildingGrants.ownerId))
    .leftJoin(apiClients, eq(apiClients.id, ownerBuildingGrants.clientId))
    .leftJoin(
      properties,
      and(
        eq(properties.ownerId, ownerBuildingGrants.ownerId),
        eq(properties.pmsType, ownerBuildingGrants.pmsType),
        eq(properties.pmsPropertyId, ownerBuildingGrants.pmsPropertyId),
      ),
    );
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectRows>["execute"]>>[number];
const rowOf = (r: Selected): z.infer<typeof buildingGrantRow> => ({
  id: r.grant.id,
  owner_slug: r.ownerSlug,
  owner_name: r.ownerName,
  client_id: r.grant.clientId,
  client_name: r.clientName,
  pms_type: r.grant.pmsType,
  pms_property_id: r.grant.pmsPropertyId,
  building: r.buildingId !== null && r.buildingName !== null ? { id: r.buildingId, name: r.buildingName } : null,
  created_at: r.grant.createdAt.toISOString(),
});

export async function searchBuildingGrants(db: Tx, input: z.infer<typeof buildingGrantSearchInput>) {
  const conditions: SQL[] = [];
  if (input.owner_slug) conditions.push(eq(propertyOwners.slug, input.owner_slug));
  if (input.client_id) conditions.push(eq(ownerBuildingGrants.clientId, input.client_id));
  const rows = await selectRows(db)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(ownerBuildingGrants.createdAt), asc(ownerBuildingGrants.id))
    .limit(500);
  return rows.map(rowOf);
}

const auditedGrant = (g: z.infer<typeof buildingGrantRow>) => ({
  owner_slug: g.owner_slug,
  client_id: g.client_id,
  pms_type: g.pms_type,
  pms_property_id: g.pms_property_id,
});

async function rowById(tx: Tx, id: number) {
  const [row] = await selectRows(tx).where(eq(ownerBuildingGrants.id, id));
  return row ? rowOf(row) : undefined;
}

/** Adds a building grant (and the owner grant it needs); the same grant again changes nothing. */
export async function addBuildingGrant(db: Db, actor: AuditActor, input: z.infer<typeof buildingGrantInput>) {
  return db.transaction(async (tx) => {
    const owner = await findOwnerBySlugExactly(tx, input.owner_slug);
    if (!owner) throw errors.notFound(M.ownerNotFound(input.owner_slug));
    if (owner.mergedIntoId) throw errors.invalid(M.ownerMerged(input.owner_slug), "owner_slug");
    if (!owner.managed) throw errors.invalid(M.ownerNotManaged(input.owner_slug), "owner_slug");
    const [client] = await tx.select().from(apiClients).where(eq(apiClients.id, input.client_id));
    if (!client || client.disabledAt) throw errors.notFound(M.clientNotFound(input.client_id));
    const key = and(
      eq(ownerBuildingGrants.ownerId, owner.id),
      eq(ownerBuildingGrants.clientId, input.client_id),
      eq(ownerBuildingGrants.pmsType, input.pms_type),
      eq(ownerBuildingGrants.pmsPropertyId, input.pms_property_id),
    );
    const [existing] = await tx.select({ id: ownerBuildingGrants.id }).from(ownerBuildingGrants).where(key);
    if (!existing) {
      await grantBuilding(tx, { ownerSlug: owner.slug, clientId: input.client_id, pmsType: input.pms_type, pmsPropertyId: input.pms_property_id });
    }
    const [stored] = await tx.select({ id: ownerBuildingGrants.id }).from(ownerBuildingGrants).where(key);
    const grant = (await rowById(tx, stored.id)) as z.infer<typeof buildingGrantRow>;
    if (!existing) {
      await recordAudit(tx, actor, {
        action: "building_grants.add",
        subject: { type: "building_grant", id: grant.id },
        ownerId: owner.id,
        after: auditedGrant(grant),
      });
    }
    return { grant, changed: !existing };
  });
}

/** Removes one building grant; the client keeps its grant of the owner (other buildings may remain). */
export async function removeBuildingGrant(db: Db, actor: AuditActor, id: number) {
  return db.transaction(async (tx) => {
    const grant = await rowById(tx, id);
    if (!grant) throw errors.notFound(M.grantNotFound);
    await tx.delete(ownerBuildingGrants).where(eq(ownerBuildingGrants.id, id));
    const [owner] = await tx.select({ id: propertyOwners.id }).from(propertyOwners).where(eq(propertyOwners.slug, grant.owner_slug));
    await recordAudit(tx, actor, {
      action: "building_grants.remove",
      subject: { type: "building_grant", id },
      ownerId: owner?.id,
      before: auditedGrant(grant),
    });
    return { grant, changed: true };
  });
}
