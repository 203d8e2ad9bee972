import { eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { requestProspectReevaluation } from "../prospects/prospect__reevaluate";
import { properties } from "./roster.table";

/**
 * Activates or deactivates a building (spec Unit rules: a building is removed with `active: false`),
 * as a property item's `active` does: the decisions of its prospects follow in the background
 * (spec Property transitions), the re-evaluation added in this same transaction. Answers whether
 * anything changed.
 */
export async function setBuildingActive(tx: Tx, building: { id: number; ownerId: number; active: boolean }, active: boolean): Promise<boolean> {
  if (building.active === active) return false;
  await tx.update(properties).set({ active, updatedAt: new Date() }).where(eq(properties.id, building.id));
  await requestProspectReevaluation(tx, { ownerId: building.ownerId, buildingIds: [building.id] });
  return true;
}
