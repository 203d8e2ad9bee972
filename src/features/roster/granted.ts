import { type SQL, sql } from "drizzle-orm";
import { ownerMergeBuildingAccess } from "../owners/merge/merge.table";
import { ownerBuildingGrants } from "../owners/owners.table";
import type { Owner } from "../owners/service";
import { properties } from "./roster.table";

/**
 * The buildings a client reaches, as a condition on `properties`: for an owner with an existing
 * relationship, only those granted to the client by their PMS pair (`owner grant-building`); an
 * ungranted building behaves as unknown (docs/decisions.md, Prospects). A partner-created owner's whole roster
 * is reachable by every client granted the owner: undefined, no condition.
 * Written as a tuple `in`, not a correlated `exists`: drizzle leaves a one-table select's columns
 * unqualified, and inside the subquery they would name the grant's own columns.
 */
export function grantedBuildings(owner: Pick<Owner, "id" | "managed">, clientId: string): SQL | undefined {
  if (!owner.managed) return undefined;
  // Or a building that moved into this owner from a duplicate the client had (decisions §12 Owners).
  return sql`((${properties.pmsType}, ${properties.pmsPropertyId}) in (select ${ownerBuildingGrants.pmsType}, ${ownerBuildingGrants.pmsPropertyId} from ${ownerBuildingGrants} where ${ownerBuildingGrants.ownerId} = ${owner.id} and ${ownerBuildingGrants.clientId} = ${clientId})
    or ${properties.id} in (select ${ownerMergeBuildingAccess.propertyId} from ${ownerMergeBuildingAccess} where ${ownerMergeBuildingAccess.clientId} = ${clientId}))`;
}
