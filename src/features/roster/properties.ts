import { and, eq, or, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { idArray } from "../../server/db/id-array";
import { ownerBuildingGrants } from "../owners/owners.table";
import type { Owner } from "../owners/service";
import { requestProspectReevaluation } from "../prospects/prospect__reevaluate";
import { normalizeState, normalizeStreetLine, normalizeZip } from "./address";
import { recordAddressHistory, type StoredAddress, sameAddress } from "./address-history";
import { addressHistory } from "./address-history.table";
import { type PropertyItem, propertyItem, SINGLE_UNIT_TYPES } from "./api/properties.types";
import { insertRows, textArray } from "./bulk";
import { applyInOrder, fail, ItemFailure, type ItemResult, parseItems, sameStored, validItems } from "./collection";
import { alreadyRecorded, type LatestDisagreements, latestDisagreements } from "./disagreements";
import { type Building, BuildingIndex, matchBuilding, nameKeyOf, type PropertyRow } from "./match-building";
import { ROSTER_MESSAGES } from "./messages";
import { addressDisagreements, bankAccounts, properties, units } from "./roster.table";

export type { Building, PropertyRow };

type Context = {
  owner: Owner;
  clientId: string;
  buildings: Building[];
  /** The same buildings, indexed for matching. */
  index: BuildingIndex;
  bankIds: Map<string, number>;
  grants: Set<string> | null;
  disagreements: Array<typeof addressDisagreements.$inferInsert & { building: Building }>;
  /** Addresses stored by this batch (created, or sent and applied), for the derivation history. */
  stored: Array<StoredAddress & { building: Building }>;
  /** The address the partner last sent for each candidate building (its last `properties` history entry). */
  lastSent: Map<number, StoredAddress>;
  /** The latest disagreements of the locked candidate buildings. */
  recorded: LatestDisagreements;
};

/**
 * spec Property rules: each item is matched and applied in request order against an in-memory view
 * of the candidate buildings, then all changes are written with two set-based statements.
 */
export async function upsertProperties(tx: Tx, owner: Owner, clientId: string, rawItems: unknown[]): Promise<ItemResult[]> {
  const parsed = parseItems(propertyItem, rawItems);
  const items = validItems(parsed);
  // Lookups that do not depend on each other are sent together (pipelined on the connection).
  const [buildings, bankIds, grants] = await Promise.all([
    loadCandidates(tx, owner.id, items),
    loadBankAccounts(tx, owner.id, items),
    owner.managed ? loadGrants(tx, owner.id, clientId) : null,
  ]);
  const ids = buildings.flatMap(({ row }) => (row.id === undefined ? [] : [row.id]));
  const [recorded, lastSent] = await Promise.all([
    latestDisagreements(
      tx,
      buildings.flatMap(({ row }) => (row.addressLockedAt && row.id !== undefined ? [row.id] : [])),
    ),
    lastSentAddresses(tx, ids),
  ]);
  const ctx: Context = {
    owner,
    clientId,
    buildings,
    index: new BuildingIndex(buildings),
    bankIds,
    grants,
    disagreements: [],
    stored: [],
    recorded,
    lastSent,
  };
  const results = applyInOrder(parsed, (item) => applyItem(ctx, item));
  const updatedIds = ctx.buildings.flatMap((building) => (building.dirty && building.row.id !== undefined ? [building.row.id] : []));
  await writeBuildings(tx, ctx);
  // spec Property transitions: the prospects of changed buildings follow them (in the background).
  await requestProspectReevaluation(tx, { ownerId: owner.id, buildingIds: updatedIds });
  return results;
}

/**
 * spec Common rules 5: a failed item writes nothing. The item is worked out on a copy of the matched
 * (or new) building's row, and only an item that succeeds puts it back into the in-memory view, so a
 * failed item neither inserts, nor partly updates, nor links a building, and later items of the batch
 * see the view as if it had never been sent.
 */
function applyItem(ctx: Context, item: PropertyItem): "created" | "updated" {
  const address = item.address ? normalizedAddress(item.address) : undefined;
  if ((item.pms_type == null) !== (item.pms_property_id == null)) {
    fail(item.pms_type == null ? "pms_type" : "pms_property_id", "pms_type and pms_property_id are sent together");
  }
  if (ctx.grants) checkGranted(ctx.grants, item);
  const match = matchBuilding(ctx.index, item, address);
  // A matched building is linked to the partner identifier (adopted) when the item succeeds.
  const row = match ? { ...match.row, externalSystemId: item.external_system_id } : newRow(ctx, item, address);
  const before = addressOf(row);
  const disagreement = applyFields(ctx, row, match?.unitCount ?? 0, item, address, !match);
  const building = match ?? { row, unitCount: 0, dirty: true };
  // An item that changes nothing writes nothing (docs/decisions.md, Roster batch speed).
  if (match && !sameStored(match.row, row, UPDATABLE)) building.dirty = true;
  if (match) {
    match.row = row;
    ctx.index.put(match);
  } else ctx.index.add(building);
  if (disagreement) ctx.disagreements.push({ ...disagreement, building });
  if (!match || !sameAddress(before, addressOf(row))) ctx.stored.push({ ...addressOf(row), building });
  return match ? "updated" : "created";
}

function normalizedAddress(address: NonNullable<PropertyItem["address"]>) {
  const state = normalizeState(address.state);
  const zip = normalizeZip(address.zip);
  const errors: Record<string, string[]> = {};
  if (!state) errors["address.state"] = [ROSTER_MESSAGES.invalidState];
  if (!zip) errors["address.zip"] = [ROSTER_MESSAGES.invalidZip];
  if (Object.keys(errors).length) throw new ItemFailure(errors);
  return { lineOne: address.line_one, city: address.city, state: state as string, zip: zip as string, streetKey: normalizeStreetLine(address.line_one) };
}

/** spec Property rules, Failures: managed owners act only on buildings granted to the partner. */
function checkGranted(grants: Set<string>, item: PropertyItem): void {
  if (!item.pms_type || !item.pms_property_id) fail("pms_property_id", ROSTER_MESSAGES.managedOwnerNeedsPmsPair);
  if (!grants.has(`${item.pms_type}:${item.pms_property_id}`)) fail("pms_property_id", ROSTER_MESSAGES.outsideGrantedBuildings);
}

type Row = Building["row"];
type Address = ReturnType<typeof normalizedAddress>;
type Disagreement = Omit<Context["disagreements"][number], "building">;

const addressOf = (row: Row): StoredAddress => ({ lineOne: row.addressLineOne, city: row.city, state: row.state, zip: row.zip });

function newRow(ctx: Context, item: PropertyItem, address: Address | undefined): Row {
  const missing = [...(item.building_name ? [] : ["building_name"]), ...(address ? [] : ["address"])];
  if (missing.length) throw new ItemFailure(Object.fromEntries(missing.map((field) => [field, [ROSTER_MESSAGES.required]])));
  const now = new Date();
  const coverage = item.default_coverage ?? null;
  return {
    ownerId: ctx.owner.id,
    externalSystemId: item.external_system_id,
    buildingName: item.building_name as string,
    nameKey: nameKeyOf(item.building_name as string),
    streetKey: address?.streetKey as string,
    addressLineOne: address?.lineOne as string,
    city: address?.city as string,
    state: address?.state as string,
    zip: address?.zip as string,
    type: "multifamily",
    policyHolderName: null,
    pmsType: null,
    pmsPropertyId: null,
    defaultCoverage: coverage,
    bankAccountId: null,
    active: true,
    // spec Property rules, Guarantee on creation: only for buildings this endpoint creates.
    guaranteeEnabled: ctx.owner.guarantorCoverageCapable,
    guaranteeCoverage: ctx.owner.guarantorCoverageCapable ? (coverage ?? { type: "multiplier", value: 1 }) : null,
    addressLockedAt: null,
    addressLockedReason: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Writes the item's present fields into `row` (a copy); answers the address disagreement to record, if any. */
function applyFields(ctx: Context, row: Row, unitCount: number, item: PropertyItem, address: Address | undefined, created: boolean): Disagreement | undefined {
  // spec Common rules 3: only present fields are written; an explicit null clears an optional field.
  if (item.type !== undefined) {
    if (SINGLE_UNIT_TYPES.has(item.type) && unitCount > 1) fail("type", ROSTER_MESSAGES.typeHoldsOneUnit(item.type, unitCount));
    row.type = item.type;
  }
  if (item.bank_account_external_id !== undefined) {
    if (item.bank_account_external_id === null) row.bankAccountId = null;
    else row.bankAccountId = ctx.bankIds.get(item.bank_account_external_id) ?? fail("bank_account_external_id", ROSTER_MESSAGES.unknownBankAccount);
  }
  if (item.building_name !== undefined) {
    row.buildingName = item.building_name;
    row.nameKey = nameKeyOf(item.building_name);
  }
  let disagreement: Disagreement | undefined;
  if (address && !created) {
    // spec Property rules, Address derivation: once locked, a different address is logged, not applied.
    if (row.addressLockedAt && !sameAddress(address, addressOf(row))) {
      const entry = {
        source: "partner_update" as const,
        storedLineOne: row.addressLineOne,
        proposedLineOne: address.lineOne,
        proposedCity: address.city,
        proposedState: address.state,
        proposedZip: address.zip,
      };
      // Once: the same proposal again (an unchanged re-send) is already on record.
      if (!alreadyRecorded(ctx.recorded, row.id as number, entry)) disagreement = { propertyId: 0, ...entry };
    } else if (!row.addressLockedAt && !derivedSinceSent(ctx, row, address)) {
      Object.assign(row, { addressLineOne: address.lineOne, city: address.city, state: address.state, zip: address.zip, streetKey: address.streetKey });
    }
  }
  if (item.policy_holder_name !== undefined) row.policyHolderName = item.policy_holder_name;
  if (item.pms_type !== undefined) row.pmsType = item.pms_type;
  if (item.pms_property_id !== undefined) row.pmsPropertyId = item.pms_property_id;
  if (item.default_coverage !== undefined) row.defaultCoverage = item.default_coverage;
  if (item.active !== undefined) row.active = item.active;
  return disagreement;
}

async function loadCandidates(tx: Tx, ownerId: number, items: PropertyItem[]): Promise<Building[]> {
  const ids = items.map((item) => item.external_system_id);
  const pmsIds = items.flatMap((item) => (item.pms_property_id ? [item.pms_property_id] : []));
  const names = items.flatMap((item) => (item.building_name ? [nameKeyOf(item.building_name)] : []));
  if (!ids.length) return [];
  const rows = await tx
    .select()
    .from(properties)
    .where(
      and(
        eq(properties.ownerId, ownerId),
        or(
          sql`${properties.externalSystemId} = any(${textArray(ids)})`,
          pmsIds.length ? sql`${properties.pmsPropertyId} = any(${textArray(pmsIds)})` : undefined,
          names.length ? sql`${properties.nameKey} = any(${textArray(names)})` : undefined,
        ),
      ),
    );
  const counts = rows.length
    ? await tx
        .select({ propertyId: units.propertyId, count: sql<number>`count(*)::int` })
        .from(units)
        .where(sql`${units.propertyId} = any(${idArray(rows.map((row) => row.id))})`)
        .groupBy(units.propertyId)
    : [];
  const countOf = new Map(counts.map((entry) => [entry.propertyId, entry.count]));
  return rows.map((row) => ({ row, unitCount: countOf.get(row.id) ?? 0, dirty: false }));
}

/**
 * spec Property rules, Address derivation: "the stored address may differ from what was sent". The
 * address the partner last sent, sent again after the units derived the street, is not a new
 * address: it does not undo the derivation (docs/decisions.md, Roster batch speed).
 */
function derivedSinceSent(ctx: Context, row: Row, address: Address): boolean {
  const sent = row.id === undefined ? undefined : ctx.lastSent.get(row.id);
  return sent !== undefined && sameAddress(sent, address) && !sameAddress(sent, addressOf(row));
}

async function lastSentAddresses(tx: Tx, buildingIds: number[]): Promise<Map<number, StoredAddress>> {
  if (!buildingIds.length) return new Map();
  const rows = await tx.execute<StoredAddress & { propertyId: number }>(sql`
    select distinct on (property_id) property_id as "propertyId", line_one as "lineOne", city, state, zip
    from ${addressHistory}
    where property_id = any(${idArray(buildingIds)}) and source = 'properties'
    order by property_id, id desc`);
  return new Map(rows.map(({ propertyId, ...address }) => [propertyId, address]));
}

async function loadBankAccounts(tx: Tx, ownerId: number, items: PropertyItem[]): Promise<Map<string, number>> {
  const ids = [...new Set(items.flatMap((item) => (item.bank_account_external_id ? [item.bank_account_external_id] : [])))];
  if (!ids.length) return new Map();
  const rows = await tx
    .select({ id: bankAccounts.id, externalSystemId: bankAccounts.externalSystemId })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.ownerId, ownerId), sql`${bankAccounts.externalSystemId} = any(${textArray(ids)})`));
  return new Map(rows.map((row) => [row.externalSystemId, row.id]));
}

async function loadGrants(tx: Tx, ownerId: number, clientId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ pmsType: ownerBuildingGrants.pmsType, pmsPropertyId: ownerBuildingGrants.pmsPropertyId })
    .from(ownerBuildingGrants)
    .where(and(eq(ownerBuildingGrants.ownerId, ownerId), eq(ownerBuildingGrants.clientId, clientId)));
  return new Set(rows.map((row) => `${row.pmsType}:${row.pmsPropertyId}`));
}

/** Two statements: one insert of the new buildings, one insert-on-conflict-update of the changed ones. */
async function writeBuildings(tx: Tx, ctx: Context): Promise<void> {
  const fresh = ctx.buildings.filter((building) => building.row.id === undefined);
  const changed = ctx.buildings.filter((building) => building.row.id !== undefined && building.dirty);
  if (fresh.length) {
    const inserted = await insertRows(
      tx,
      properties,
      fresh.map(({ row: { id: _, ...row } }) => row),
      { returning: sql`${properties.id}, ${properties.externalSystemId}` },
    );
    const idOf = new Map(inserted.map((row) => [row.external_system_id as string, row.id as number]));
    for (const building of fresh) building.row.id = idOf.get(building.row.externalSystemId as string);
  }
  if (changed.length) {
    await insertRows(
      tx,
      properties,
      changed.map(({ row }) => ({ ...(row as PropertyRow), updatedAt: new Date() })),
      { onConflictUpdate: { target: properties.id, set: [...UPDATABLE] } },
    );
  }
  if (ctx.disagreements.length) {
    await tx.insert(addressDisagreements).values(ctx.disagreements.map(({ building, ...entry }) => ({ ...entry, propertyId: building.row.id as number })));
  }
  await recordAddressHistory(
    tx,
    ctx.stored.map(({ building, ...address }) => ({ ...address, propertyId: building.row.id as number, source: "properties" })),
  );
}

/** The columns an item can change (`updatedAt` is the copied row's own until written). */
const UPDATABLE = [
  "externalSystemId",
  "buildingName",
  "nameKey",
  "streetKey",
  "addressLineOne",
  "city",
  "state",
  "zip",
  "type",
  "policyHolderName",
  "pmsType",
  "pmsPropertyId",
  "defaultCoverage",
  "bankAccountId",
  "active",
  "updatedAt",
] as const;
