import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { idArray } from "../../server/db/id-array";
import type { FieldErrors } from "../../server/errors";
import { requestProspectReevaluation } from "../prospects/prospect__reevaluate";
import { deriveBuildingStreet, deriveUnitName, normalizeStreetLine } from "./address";
import { recordAddressHistory } from "./address-history";
import { SINGLE_UNIT_TYPES } from "./api/properties.types";
import { type UnitItem, unitItem } from "./api/units.types";
import { insertRows, textArray } from "./bulk";
import { applyInOrder, fail, ItemFailure, type ItemResult, type Parsed, parseItems, sameStored, validItems } from "./collection";
import { alreadyRecorded, type LatestDisagreements, latestDisagreements } from "./disagreements";
import { ROSTER_MESSAGES } from "./messages";
import { addressDisagreements, properties, units } from "./roster.table";

type PropertyRow = typeof properties.$inferSelect;
type UnitRow = typeof units.$inferSelect;
type UnitState = { row: UnitRow | (Omit<UnitRow, "id"> & { id?: undefined }); dirty: boolean };
type Building = { row: PropertyRow; units: UnitState[]; streetChanged: boolean };

/** Passes in which the failed units left out of derivation are re-decided before they become final. */
const FREE_PASSES = 3;

/**
 * spec Unit rules. The building street is derived first from every unit address known for the
 * building (stored and in this request), so names derived against it resolve in the same request;
 * then items are matched and applied in request order; then everything is written set-based.
 *
 * spec Common rules 5 and Address derivation: a failed unit writes nothing and its address derives
 * nothing. A unit sent without a name can fail because of the derived street (its name is derived
 * against it), so the in-memory passes repeat until the units left out of derivation are exactly
 * the units that fail: first without the failed units that carry a name (they fail whatever the
 * street), then without every failed unit. After FREE_PASSES a unit left out stays failed, so the
 * passes end (each further pass leaves out one more unit). Only the last pass is written.
 */
export async function upsertUnits(tx: Tx, ownerId: number, rawItems: unknown[]): Promise<ItemResult[]> {
  const parsed = parseItems(unitItem, rawItems);
  const items = validItems(parsed);
  const loaded = await loadBuildings(tx, ownerId, items);
  const recorded = await latestDisagreements(
    tx,
    [...loaded.values()].flatMap(({ row }) => (row.addressLockedAt ? [row.id as number] : [])),
  );
  let excluded = new Map<UnitItem, FieldErrors>();
  for (let pass = 1; ; pass++) {
    const final = pass > FREE_PASSES;
    const buildings = copyOf(loaded);
    const disagreements = deriveStreets(
      buildings,
      items.filter((item) => !excluded.has(item)),
      recorded,
    );
    const results = applyInOrder(parsed, (item) => {
      const errors = final ? excluded.get(item) : undefined;
      if (errors) throw new ItemFailure(errors);
      return applyItem(buildings, item);
    });
    const failed = failedContributors(parsed, results, buildings);
    if (failed.size === excluded.size && [...failed.keys()].every((item) => excluded.has(item))) {
      await write(tx, [...buildings.values()], disagreements);
      // A changed unit (its coverage rule) changes the decisions of its building's prospects.
      const changed = [...buildings.values()].filter((building) => building.units.some((unit) => unit.dirty && unit.row.id !== undefined));
      await requestProspectReevaluation(tx, { ownerId, buildingIds: changed.map((building) => building.row.id) });
      return results;
    }
    const named = new Map([...failed].filter(([item]) => item.name != null));
    if (final) excluded = new Map([...excluded, ...failed]);
    else excluded = pass === 1 && named.size ? named : failed;
  }
}

/** Failed units whose address would count in derivation (a valid item with a line on a known building). */
function failedContributors(parsed: Array<Parsed<UnitItem>>, results: ItemResult[], buildings: Map<string, Building>): Map<UnitItem, FieldErrors> {
  const failed = new Map<UnitItem, FieldErrors>();
  parsed.forEach(({ parsed: entry }, index) => {
    const result = results[index];
    if (!entry.ok || result.action !== "failed" || !entry.value.address?.line_one || !buildings.has(entry.value.property_external_id)) return;
    failed.set(entry.value, result.errors ?? {});
  });
  return failed;
}

/** A pass works on its own copy of the loaded rows: a discarded pass leaves nothing behind. */
function copyOf(loaded: Map<string, Building>): Map<string, Building> {
  return new Map(
    [...loaded].map(([id, building]) => [
      id,
      { row: { ...building.row }, streetChanged: false, units: building.units.map((unit) => ({ row: { ...unit.row }, dirty: false })) },
    ]),
  );
}

/** spec Property rules, Address derivation: the street shared by the units' cleaned addresses. */
function deriveStreets(buildings: Map<string, Building>, items: UnitItem[], recorded: LatestDisagreements): Array<typeof addressDisagreements.$inferInsert> {
  const disagreements: Array<typeof addressDisagreements.$inferInsert> = [];
  for (const [externalId, building] of buildings) {
    const incoming = items.filter((item) => item.property_external_id === externalId && item.address?.line_one);
    if (!incoming.length) continue;
    const replaced = new Set(incoming.map((item) => item.external_system_id));
    const lines = [
      ...building.units
        .filter((unit) => !replaced.has(unit.row.externalSystemId ?? ""))
        .flatMap((unit) => (unit.row.address?.line_one ? [unit.row.address.line_one] : [])),
      ...incoming.map((item) => item.address?.line_one as string),
    ];
    const derived = deriveBuildingStreet(lines);
    if (!derived || derived === building.row.addressLineOne) continue;
    if (building.row.addressLockedAt) {
      // Derivation stops once staff corrected the address or a policy exists: log, do not apply
      // (once: the same proposal again, as from an unchanged re-send, is already on record).
      const entry = {
        source: "derivation" as const,
        storedLineOne: building.row.addressLineOne,
        proposedLineOne: derived,
        proposedCity: building.row.city,
        proposedState: building.row.state,
        proposedZip: building.row.zip,
      };
      if (!alreadyRecorded(recorded, building.row.id, entry)) disagreements.push({ propertyId: building.row.id, ...entry });
      continue;
    }
    building.row.addressLineOne = derived;
    building.row.streetKey = normalizeStreetLine(derived);
    building.streetChanged = true;
  }
  return disagreements;
}

function applyItem(buildings: Map<string, Building>, item: UnitItem): "created" | "updated" {
  const building = buildings.get(item.property_external_id) ?? fail("property_external_id", ROSTER_MESSAGES.unknownProperty);
  const singleUnit = SINGLE_UNIT_TYPES.has(building.row.type);
  // spec Unit rules, Matching step 1: an already linked identifier updates that unit.
  let unit = building.units.find((candidate) => candidate.row.externalSystemId === item.external_system_id);
  // Step 2: an existing unit with the same pms_unit_id is adopted (exact match).
  if (!unit && item.pms_unit_id) unit = adoptable(building.units.filter((candidate) => candidate.row.pmsUnitId === item.pms_unit_id));
  let name = item.name ?? undefined;
  if (!unit && name === undefined) {
    const derived = deriveUnitName({
      line_one: item.address?.line_one,
      line_two: item.address?.line_two,
      buildingStreet: building.row.addressLineOne,
      pms_unit_id: item.pms_unit_id,
      singleUnitBuilding: singleUnit,
    });
    name = "name" in derived ? derived.name : fail("name", ROSTER_MESSAGES.unitNameNotDerivable);
  }
  // Step 3: by name, ignoring case.
  if (!unit && name !== undefined) unit = adoptable(building.units.filter((candidate) => candidate.row.nameKey === nameKey(name as string)));
  const created = !unit;
  if (!unit) {
    // spec Unit rules: single_family and garden_community hold exactly one unit.
    if (singleUnit && building.units.length >= 1) fail("property_external_id", ROSTER_MESSAGES.singleUnitBuilding(building.row.type));
    unit = newUnit(building, item, name as string);
  }
  applyFields(building, unit, item, name);
  // spec Common rules 5: a new unit joins the building only once its item has succeeded.
  if (created) building.units.push(unit);
  return created ? "created" : "updated";
}

/** A unit found by pms_unit_id or name joins the partner identifier unless it has another one. */
function adoptable(candidates: UnitState[]): UnitState | undefined {
  const [candidate] = candidates;
  if (candidate?.row.externalSystemId) fail("external_system_id", ROSTER_MESSAGES.unitLinkedElsewhere);
  return candidate;
}

const nameKey = (name: string) => name.trim().toLowerCase();

function newUnit(building: Building, item: UnitItem, name: string): UnitState {
  const now = new Date();
  return {
    dirty: true,
    row: {
      propertyId: building.row.id,
      externalSystemId: item.external_system_id,
      name,
      nameKey: nameKey(name),
      address: null,
      pmsUnitId: null,
      defaultCoverage: null,
      createdAt: now,
      updatedAt: now,
    },
  };
}

/** Checks first, then writes: a failing item changes nothing of the unit (spec Common rules 5). */
function applyFields(building: Building, unit: UnitState, item: UnitItem, name: string | undefined): void {
  const row = unit.row;
  if (name !== undefined && nameKey(name) !== row.nameKey) {
    if (building.units.some((other) => other !== unit && other.row.nameKey === nameKey(name))) fail("name", ROSTER_MESSAGES.duplicateUnitName);
  }
  const before = storedFieldsOf(row);
  row.externalSystemId = item.external_system_id;
  if (name !== undefined) Object.assign(row, { name, nameKey: nameKey(name) });
  // Stored exactly as sent (spec Unit: "The unit's full address exactly as stored").
  if (item.address !== undefined) row.address = item.address;
  if (item.pms_unit_id !== undefined) row.pmsUnitId = item.pms_unit_id;
  if (item.default_coverage !== undefined) row.defaultCoverage = item.default_coverage;
  // An item that changes nothing writes nothing (docs/decisions.md, Roster batch speed).
  if (unit.dirty || !sameStored(before, storedFieldsOf(row))) unit.dirty = true;
}

/** The columns an item can change, compared before and after it is applied. */
const storedFieldsOf = (row: UnitState["row"]) => ({
  externalSystemId: row.externalSystemId,
  name: row.name,
  nameKey: row.nameKey,
  address: row.address,
  pmsUnitId: row.pmsUnitId,
  defaultCoverage: row.defaultCoverage,
});

async function loadBuildings(tx: Tx, ownerId: number, items: UnitItem[]): Promise<Map<string, Building>> {
  const ids = [...new Set(items.map((item) => item.property_external_id))];
  if (!ids.length) return new Map();
  const rows = await tx
    .select()
    .from(properties)
    .where(and(eq(properties.ownerId, ownerId), sql`${properties.externalSystemId} = any(${textArray(ids)})`));
  const existing = rows.length
    ? await tx
        .select()
        .from(units)
        .where(sql`${units.propertyId} = any(${idArray(rows.map((row) => row.id))})`)
    : [];
  return new Map(
    rows.map((row) => [
      row.externalSystemId as string,
      { row, streetChanged: false, units: existing.filter((unit) => unit.propertyId === row.id).map((unit) => ({ row: unit, dirty: false })) },
    ]),
  );
}

async function write(tx: Tx, buildings: Building[], disagreements: Array<typeof addressDisagreements.$inferInsert>): Promise<void> {
  const all = buildings.flatMap((building) => building.units);
  const fresh = all.filter((unit) => unit.row.id === undefined).map(({ row: { id: _, ...row } }) => row);
  const changed = all.filter((unit) => unit.row.id !== undefined && unit.dirty).map(({ row }) => ({ ...(row as UnitRow), updatedAt: new Date() }));
  // Renames within a building may swap names: clear the changed names first, then write them.
  if (changed.length) {
    await tx
      .update(units)
      .set({ nameKey: sql`'~' || ${units.id}` })
      .where(sql`${units.id} = any(${idArray(changed.map((row) => row.id))})`);
    await insertRows(tx, units, changed, {
      onConflictUpdate: { target: units.id, set: ["externalSystemId", "name", "nameKey", "address", "pmsUnitId", "defaultCoverage", "updatedAt"] },
    });
  }
  await insertRows(tx, units, fresh);
  const streets = buildings.filter((building) => building.streetChanged);
  if (streets.length) {
    const derived = streets.map(({ row }) => ({ id: row.id, line: row.addressLineOne, key: row.streetKey }));
    await tx.execute(sql`update ${properties} p set address_line_one = d.line, street_key = d.key, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(derived)}::jsonb) as d(id int, line text, key text) where p.id = d.id`);
  }
  if (disagreements.length) await tx.insert(addressDisagreements).values(disagreements);
  await recordAddressHistory(
    tx,
    streets.map(({ row }) => ({ propertyId: row.id, source: "units", lineOne: row.addressLineOne, city: row.city, state: row.state, zip: row.zip })),
  );
}
