import type { PropertyItem } from "./api/properties.types";
import { fail } from "./collection";
import { ROSTER_MESSAGES } from "./messages";
import type { properties } from "./tables";

export type PropertyRow = typeof properties.$inferSelect;
/** A building as a batch sees it: its row (new rows have no id yet), its unit count, and whether it changed. */
export type Building = { row: PropertyRow | (Omit<PropertyRow, "id"> & { id?: undefined }); unitCount: number; dirty: boolean };

/** Normalized building name: case and spacing do not separate buildings. */
export const nameKeyOf = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * spec Property rules, Matching, in order. Returns the building the item updates, or undefined when
 * a new building is to be created. Throws an item failure for an ambiguous match or a building
 * already linked to a different identifier (one building, one identifier).
 */
export function matchBuilding(buildings: Building[], item: PropertyItem, address: { streetKey: string; zip: string } | undefined): Building | undefined {
  // Step 1: an identifier already linked to a building updates that building and stops.
  const linked = buildings.find((building) => building.row.externalSystemId === item.external_system_id);
  if (linked) return linked;

  const nameKey = item.building_name ? nameKeyOf(item.building_name) : undefined;

  // Step 2: a PMS pair adopts the building with the same pair; building_name selects among several.
  if (item.pms_type && item.pms_property_id) {
    const samePair = buildings.filter((b) => b.row.pmsType === item.pms_type && b.row.pmsPropertyId === item.pms_property_id);
    if (samePair.length > 1 && nameKey === undefined) fail("external_system_id", ROSTER_MESSAGES.ambiguousBuilding);
    const selected = samePair.length > 1 ? samePair.filter((b) => b.row.nameKey === nameKey) : samePair;
    if (selected.length > 1) fail("external_system_id", ROSTER_MESSAGES.ambiguousBuilding);
    const [candidate] = selected;
    if (candidate) {
      const sameName = nameKey === undefined || candidate.row.nameKey === nameKey;
      if (!candidate.row.externalSystemId) return candidate;
      // A linked building of the same PMS property under another name is another building of it.
      if (sameName) fail("external_system_id", ROSTER_MESSAGES.buildingLinkedElsewhere);
    }
  }

  // Step 3: owner + building_name + normalized street line + zip. A street alone identifies nothing.
  if (nameKey && address) {
    const candidates = buildings.filter((b) => b.row.nameKey === nameKey && b.row.streetKey === address.streetKey && b.row.zip === address.zip);
    if (candidates.length > 1) fail("external_system_id", ROSTER_MESSAGES.ambiguousBuilding);
    const [candidate] = candidates;
    if (candidate) {
      if (candidate.row.externalSystemId) fail("external_system_id", ROSTER_MESSAGES.buildingLinkedElsewhere);
      return candidate;
    }
  }
  // Step 4: create.
  return undefined;
}
