import type { PropertyItem } from "./api/properties.types";
import { fail } from "./collection";
import { ROSTER_MESSAGES } from "./messages";
import type { properties } from "./roster.table";

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
export function matchBuilding(
  buildings: Building[] | BuildingIndex,
  item: PropertyItem,
  address: { streetKey: string; zip: string } | undefined,
): Building | undefined {
  const index = Array.isArray(buildings) ? new BuildingIndex(buildings) : buildings;
  // Step 1: an identifier already linked to a building updates that building and stops.
  const linked = index.linked(item.external_system_id);
  if (linked) return linked;

  const nameKey = item.building_name ? nameKeyOf(item.building_name) : undefined;

  // Step 2: a PMS pair adopts the building with the same pair; building_name selects among several.
  if (item.pms_type && item.pms_property_id) {
    const samePair = index.all.filter((b) => b.row.pmsType === item.pms_type && b.row.pmsPropertyId === item.pms_property_id);
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
    const candidates = index.sameNameAndStreet(nameKey, address.streetKey, address.zip);
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

const matchKey = (nameKey: string, streetKey: string, zip: string) => `${nameKey}\n${streetKey}\n${zip}`;

/**
 * A batch's buildings, looked up by linked identifier (step 1) and by name, street and zip (step 3)
 * without a scan of every building for every item. Each building added or changed is `add`ed or
 * `put`; an entry a building has left is skipped when read (the building's row is checked).
 */
export class BuildingIndex {
  readonly all: Building[];
  private readonly byId = new Map<string, Building>();
  private readonly byMatchKey = new Map<string, Set<Building>>();

  constructor(buildings: Building[]) {
    this.all = buildings;
    for (const building of buildings) this.put(building);
  }

  /** A building new to the batch. */
  add(building: Building): void {
    this.all.push(building);
    this.put(building);
  }

  /** A building whose row was replaced (its keys may have changed). */
  put(building: Building): void {
    const { externalSystemId, nameKey, streetKey, zip } = building.row;
    if (externalSystemId) this.byId.set(externalSystemId, building);
    const key = matchKey(nameKey, streetKey, zip);
    const set = this.byMatchKey.get(key) ?? new Set();
    set.add(building);
    this.byMatchKey.set(key, set);
  }

  linked(externalSystemId: string): Building | undefined {
    const building = this.byId.get(externalSystemId);
    return building?.row.externalSystemId === externalSystemId ? building : undefined;
  }

  sameNameAndStreet(nameKey: string, streetKey: string, zip: string): Building[] {
    return [...(this.byMatchKey.get(matchKey(nameKey, streetKey, zip)) ?? [])].filter(
      (b) => b.row.nameKey === nameKey && b.row.streetKey === streetKey && b.row.zip === zip,
    );
  }
}
