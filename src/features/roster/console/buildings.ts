import { and, asc, desc, eq, ilike, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { propertyOwners } from "../../owners/owners.table";
import { findOwnerBySlug } from "../../owners/service";
import { ADDRESS_SOURCES, addressHistory } from "../address-history.table";
import { addressDisagreements, properties, units } from "../roster.table";
import { BUILDING_MESSAGES as M } from "./messages";

/**
 * The console's and the CLI's view of buildings (decisions §4 `building show`, §12 Buildings): every
 * owner's buildings, their stored address, its lock, the derivation history and the disagreements
 * recorded after the lock.
 */

const address = z.object({ line_one: z.string(), city: z.string(), state: z.string(), zip: z.string() });

/** decisions §4: `source` "units" for a derivation from unit loads, "properties" for a property refresh. */
const DISAGREEMENT_SOURCE = { derivation: "units", partner_update: "properties" } as const;

/** Exactly what `npm run admin -- building show` prints (decisions §4). */
export const buildingShow = z.object({
  building: z.object({
    external_system_id: z.string().nullable(),
    building_name: z.string(),
    address,
    address_locked: z.boolean(),
    active: z.boolean(),
    units: z.array(z.object({ external_system_id: z.string().nullable(), name: z.string(), pms_unit_id: z.string().optional() })),
    disagreements: z.array(z.object({ source: z.enum(["units", "properties"]), received: address, recorded_at: z.string() })),
  }),
});
export type BuildingShow = z.infer<typeof buildingShow>;

export const buildingSearchInput = z.object({
  /** Part of the building name, street line, city, zip, external id, or owner name or slug. */
  query: z.string().trim().max(200).optional(),
  ownerSlug: z.string().trim().max(200).optional(),
  active: z.boolean().optional(),
  locked: z.boolean().optional(),
  /** Keyset paging: buildings with a smaller id than this one. */
  before: z.number().int().positive().optional(),
  /** The same as `before`, under the name tRPC's infinite queries page with. */
  cursor: z.number().int().positive().nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const buildingRow = z.object({
  id: z.number().int(),
  owner_slug: z.string(),
  owner_name: z.string(),
  external_system_id: z.string().nullable(),
  building_name: z.string(),
  address,
  active: z.boolean(),
  address_locked: z.boolean(),
  unit_count: z.number().int(),
});
export type BuildingRow = z.infer<typeof buildingRow>;

export const buildingDetail = buildingRow.extend({
  owner_id: z.number().int(),
  type: z.string(),
  pms_type: z.string().nullable(),
  pms_property_id: z.string().nullable(),
  address_locked_at: z.string().nullable(),
  address_locked_reason: z.enum(["staff_correction", "policy_issued"]).nullable(),
  units: z.array(
    z.object({
      id: z.number().int(),
      external_system_id: z.string().nullable(),
      name: z.string(),
      pms_unit_id: z.string().nullable(),
      address: z
        .object({
          line_one: z.string().nullish(),
          line_two: z.string().nullish(),
          city: z.string().nullish(),
          state: z.string().nullish(),
          zip: z.string().nullish(),
        })
        .nullable(),
    }),
  ),
  history: z.array(z.object({ source: z.enum(ADDRESS_SOURCES), address, actor: z.string().nullable(), recorded_at: z.string() })),
  disagreements: z.array(z.object({ source: z.enum(["units", "properties"]), received: address, stored_line_one: z.string(), recorded_at: z.string() })),
});
export type BuildingDetail = z.infer<typeof buildingDetail>;

type PropertyRow = typeof properties.$inferSelect;
const addressOf = (row: PropertyRow) => ({ line_one: row.addressLineOne, city: row.city, state: row.state, zip: row.zip });

/** Wildcards typed in the search box are taken literally. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function searchBuildings(db: Tx, input: z.input<typeof buildingSearchInput>): Promise<BuildingRow[]> {
  const filters = buildingSearchInput.parse(input);
  const conditions: SQL[] = [];
  if (filters.query) {
    const like = `%${escapeLike(filters.query)}%`;
    conditions.push(
      or(
        ilike(properties.buildingName, like),
        ilike(properties.addressLineOne, like),
        ilike(properties.city, like),
        ilike(properties.zip, like),
        ilike(properties.externalSystemId, like),
        ilike(propertyOwners.name, like),
        ilike(propertyOwners.slug, like),
      ) as SQL,
    );
  }
  if (filters.ownerSlug) conditions.push(eq(propertyOwners.slug, filters.ownerSlug));
  if (filters.active !== undefined) conditions.push(eq(properties.active, filters.active));
  if (filters.locked !== undefined) conditions.push(filters.locked ? isNotNull(properties.addressLockedAt) : isNull(properties.addressLockedAt));
  const before = filters.before ?? filters.cursor;
  if (before) conditions.push(lt(properties.id, before));
  const rows = await db
    .select({
      building: properties,
      ownerSlug: propertyOwners.slug,
      ownerName: propertyOwners.name,
      unitCount: sql<number>`(select count(*)::int from ${units} where ${units.propertyId} = ${properties.id})`,
    })
    .from(properties)
    .innerJoin(propertyOwners, eq(propertyOwners.id, properties.ownerId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(properties.id))
    .limit(filters.limit);
  return rows.map(({ building, ownerSlug, ownerName, unitCount }) => rowOf(building, ownerSlug, ownerName, unitCount));
}

function rowOf(building: PropertyRow, ownerSlug: string, ownerName: string, unitCount: number): BuildingRow {
  return {
    id: building.id,
    owner_slug: ownerSlug,
    owner_name: ownerName,
    external_system_id: building.externalSystemId,
    building_name: building.buildingName,
    address: addressOf(building),
    active: building.active,
    address_locked: building.addressLockedAt !== null,
    unit_count: unitCount,
  };
}

export async function buildingForConsole(db: Tx, id: number): Promise<BuildingDetail> {
  const [found] = await db
    .select({ building: properties, ownerSlug: propertyOwners.slug, ownerName: propertyOwners.name })
    .from(properties)
    .innerJoin(propertyOwners, eq(propertyOwners.id, properties.ownerId))
    .where(eq(properties.id, id));
  if (!found) throw errors.notFound(M.buildingNotFound);
  const { building } = found;
  const [unitRows, history, disagreements] = await Promise.all([
    db.select().from(units).where(eq(units.propertyId, id)).orderBy(asc(units.id)),
    db.select().from(addressHistory).where(eq(addressHistory.propertyId, id)).orderBy(desc(addressHistory.id)),
    disagreementsOf(db, id),
  ]);
  return {
    ...rowOf(building, found.ownerSlug, found.ownerName, unitRows.length),
    owner_id: building.ownerId,
    type: building.type,
    pms_type: building.pmsType,
    pms_property_id: building.pmsPropertyId,
    address_locked_at: building.addressLockedAt?.toISOString() ?? null,
    address_locked_reason: building.addressLockedReason,
    units: unitRows.map((unit) => ({
      id: unit.id,
      external_system_id: unit.externalSystemId,
      name: unit.name,
      pms_unit_id: unit.pmsUnitId,
      address: unit.address,
    })),
    history: history.map((entry) => ({
      source: entry.source,
      address: { line_one: entry.lineOne, city: entry.city, state: entry.state, zip: entry.zip },
      actor: entry.actor,
      recorded_at: entry.createdAt.toISOString(),
    })),
    disagreements: disagreements.map((entry) => ({ ...entry.shown, stored_line_one: entry.storedLineOne })),
  };
}

/** Newest first: what arrived last is what staff look at first. */
async function disagreementsOf(db: Tx, propertyId: number) {
  const rows = await db.select().from(addressDisagreements).where(eq(addressDisagreements.propertyId, propertyId)).orderBy(desc(addressDisagreements.id));
  return rows.map((row) => ({
    storedLineOne: row.storedLineOne,
    shown: {
      source: DISAGREEMENT_SOURCE[row.source],
      received: { line_one: row.proposedLineOne, city: row.proposedCity, state: row.proposedState, zip: row.proposedZip },
      recorded_at: row.createdAt.toISOString(),
    },
  }));
}

/** The building an owner's partner identifier names (the CLI's `--owner SLUG --external-id X`). */
export async function findBuildingId(db: Tx, ownerSlug: string, externalId: string): Promise<number> {
  const owner = await findOwnerBySlug(db, ownerSlug);
  if (!owner) throw errors.notFound(M.ownerNotFound(ownerSlug));
  const [row] = await db
    .select({ id: properties.id })
    .from(properties)
    .where(and(eq(properties.ownerId, owner.id), eq(properties.externalSystemId, externalId)));
  if (!row) throw errors.notFound(M.buildingNotFoundFor(ownerSlug, externalId));
  return row.id;
}

/** decisions §4 `building show`: units oldest first; `pms_unit_id` omitted when the unit has none. */
export async function showBuilding(db: Tx, id: number): Promise<BuildingShow> {
  const [building] = await db.select().from(properties).where(eq(properties.id, id));
  if (!building) throw errors.notFound(M.buildingNotFound);
  const [unitRows, disagreements] = await Promise.all([
    db.select().from(units).where(eq(units.propertyId, id)).orderBy(asc(units.id)),
    disagreementsOf(db, id),
  ]);
  return {
    building: {
      external_system_id: building.externalSystemId,
      building_name: building.buildingName,
      address: addressOf(building),
      address_locked: building.addressLockedAt !== null,
      active: building.active,
      units: unitRows.map((unit) => ({
        external_system_id: unit.externalSystemId,
        name: unit.name,
        ...(unit.pmsUnitId ? { pms_unit_id: unit.pmsUnitId } : {}),
      })),
      disagreements: disagreements.map((entry) => entry.shown),
    },
  };
}
