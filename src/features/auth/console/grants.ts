import { and, asc, eq, ilike, isNull, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { ownerBuildingGrants, propertyOwners } from "../../owners/owners.table";
import { clientOwnerGrants } from "../clients.table";
import { changeableClient, clientById } from "./clients";
import { grantInput, ownerOptionsInput } from "./grants.inputs";
import { ACCESS_MESSAGES as M } from "./messages";

/**
 * A client's owner grants from the console (spec Owner slugs and access; decisions §4 `client
 * grant`). Grants are not cached: a grant given or revoked applies to the next partner request.
 */

export { grantInput, ownerOptionsInput };
export const grantResult = z.object({ client_id: z.string(), owner_slug: z.string(), changed: z.boolean() });
export const ownerOption = z.object({ owner_slug: z.string(), name: z.string(), managed: z.boolean() });

/** An owner to grant, by slug: unknown → NOT_FOUND; merged → the survivor must be granted instead. */
export async function ownerToGrant(tx: Tx, slug: string) {
  const survivor = alias(propertyOwners, "survivor");
  const [row] = await tx
    .select({ owner: propertyOwners, survivorSlug: survivor.slug })
    .from(propertyOwners)
    .leftJoin(survivor, eq(survivor.id, propertyOwners.mergedIntoId))
    .where(eq(propertyOwners.slug, slug));
  if (!row) throw errors.notFound(M.ownerNotFound(slug));
  if (row.survivorSlug) throw errors.invalid(M.ownerMerged(slug, row.survivorSlug), "owner_slug");
  return row.owner;
}

/** Owners to pick from by slug or name (merged ones excluded), for the grant dialogs. */
export async function ownerOptions(db: Tx, input: z.infer<typeof ownerOptionsInput>) {
  const pattern = `%${(input.query ?? "").replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ owner_slug: propertyOwners.slug, name: propertyOwners.name, managed: propertyOwners.managed })
    .from(propertyOwners)
    .where(and(isNull(propertyOwners.mergedIntoId), or(ilike(propertyOwners.slug, pattern), ilike(propertyOwners.name, pattern))))
    .orderBy(asc(propertyOwners.slug))
    .limit(20);
  return rows;
}

/** Idempotent: granting an owner already granted changes nothing and writes no audit row. */
export async function grantOwnerByStaff(db: Db, actor: AuditActor, input: z.infer<typeof grantInput>) {
  return db.transaction(async (tx) => {
    await changeableClient(tx, input.client_id);
    const owner = await ownerToGrant(tx, input.owner_slug);
    const inserted = await tx
      .insert(clientOwnerGrants)
      .values({ clientId: input.client_id, ownerId: owner.id })
      .onConflictDoNothing()
      .returning({ ownerId: clientOwnerGrants.ownerId });
    if (inserted.length) {
      await recordAudit(tx, actor, {
        action: "clients.grant_owner",
        subject: { type: "client", id: input.client_id },
        ownerId: owner.id,
        before: { owner_slug: owner.slug, granted: false },
        after: { owner_slug: owner.slug, granted: true },
      });
    }
    return { client_id: input.client_id, owner_slug: owner.slug, changed: inserted.length > 0 };
  });
}

/**
 * Revokes the grant, and with it the client's building grants under that owner (a managed owner):
 * granting the owner again later must not bring back buildings silently. Unknown grant → NOT_FOUND.
 */
export async function revokeOwnerGrant(db: Db, actor: AuditActor, input: z.infer<typeof grantInput>) {
  return db.transaction(async (tx) => {
    await clientById(tx, input.client_id);
    const [owner] = await tx.select().from(propertyOwners).where(eq(propertyOwners.slug, input.owner_slug));
    if (!owner) throw errors.notFound(M.ownerNotFound(input.owner_slug));
    const removed = await tx
      .delete(clientOwnerGrants)
      .where(and(eq(clientOwnerGrants.clientId, input.client_id), eq(clientOwnerGrants.ownerId, owner.id)))
      .returning({ ownerId: clientOwnerGrants.ownerId });
    if (!removed.length) throw errors.notFound(M.grantNotFound(input.client_id, input.owner_slug));
    const buildings = await tx
      .delete(ownerBuildingGrants)
      .where(and(eq(ownerBuildingGrants.clientId, input.client_id), eq(ownerBuildingGrants.ownerId, owner.id)))
      .returning({ pmsType: ownerBuildingGrants.pmsType, pmsPropertyId: ownerBuildingGrants.pmsPropertyId });
    await recordAudit(tx, actor, {
      action: "clients.revoke_owner",
      subject: { type: "client", id: input.client_id },
      ownerId: owner.id,
      before: {
        owner_slug: owner.slug,
        granted: true,
        building_grants: buildings.map((b) => ({ pms_type: b.pmsType, pms_property_id: b.pmsPropertyId })),
      },
      after: { owner_slug: owner.slug, granted: false, building_grants: [] },
    });
    return { client_id: input.client_id, owner_slug: owner.slug, changed: true };
  });
}
