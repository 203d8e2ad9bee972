import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { findActiveClient, grantOwner } from "../auth/clients";
import { ownerBuildingGrants } from "./owners.table";
import { findOwnerBySlug } from "./service";

/**
 * decisions §4 `owner grant-building`: the service grants a partner access to a named building of a
 * managed owner, identified by its PMS pair. The client is granted the owner's slug with it.
 */
export async function grantBuilding(tx: Tx, input: { ownerSlug: string; clientId: string; pmsType: "pms_one" | "pms_two"; pmsPropertyId: string }) {
  const owner = await findOwnerBySlug(tx, input.ownerSlug);
  if (!owner) throw errors.notFound(`No owner ${input.ownerSlug}`);
  if (!owner.managed) throw errors.invalid(`Owner ${input.ownerSlug} is not a managed owner; grant the whole owner with 'client grant'`, "owner");
  if (!(await findActiveClient(tx, input.clientId))) throw errors.notFound(`No active client ${input.clientId}`);
  await grantOwner(tx, input.clientId, owner.id);
  await tx
    .insert(ownerBuildingGrants)
    .values({ ownerId: owner.id, clientId: input.clientId, pmsType: input.pmsType, pmsPropertyId: input.pmsPropertyId })
    .onConflictDoNothing();
  return { owner_slug: owner.slug, client_id: input.clientId, pms_type: input.pmsType, pms_property_id: input.pmsPropertyId };
}
