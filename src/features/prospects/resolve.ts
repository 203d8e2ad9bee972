import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import type { Owner } from "../owners/service";
import { grantedBuildings } from "../roster/granted";
import { lockOwnerRoster } from "../roster/lock";
import { upsertProperties } from "../roster/properties";
import { properties, units } from "../roster/roster.table";
import { upsertUnits } from "../roster/units";
import { PROSPECT_MESSAGES } from "./messages";
import type { ProspectFields } from "./schemas";

export type Location = { propertyId: number | null; unitId: number | null };

const NONE: Location = { propertyId: null, unitId: null };

const isReference = (item: object) => Object.keys(item).length === 1;

/**
 * The ids named by nested `property` / `unit` references, read in one statement (null where the owner
 * has no such record, or the client was not granted it); undefined when the request names no
 * property. The usual prospect carries two known references: with this read they resolve without
 * further queries.
 */
export async function findReferencedLocation(tx: Tx, owner: Owner, clientId: string, fields: ProspectFields): Promise<Location | undefined> {
  if (!fields.property) return undefined;
  const unitExternalId = fields.unit?.external_system_id;
  const [row] = await tx
    .select({
      propertyId: properties.id,
      unitId: unitExternalId
        ? // Qualified by hand: drizzle writes a one-table select's columns unqualified.
          sql<number | null>`(select u.id from units u where u.property_id = properties.id and u.external_system_id = ${unitExternalId})`
        : sql<null>`null`,
    })
    .from(properties)
    .where(and(eq(properties.ownerId, owner.id), eq(properties.externalSystemId, fields.property.external_system_id), grantedBuildings(owner, clientId)));
  return row ?? NONE;
}

/** What the prospect holds today: its resolved building and unit, and its stored PMS identifiers. */
export type StoredLocation = Location & { pmsType: "pms_one" | "pms_two" | null; pmsPropertyId: string | null; pmsUnitId: string | null };

/**
 * spec Prospect rules 2, 4-5 and Common rules 3. Owners provisioned through onboarding name the
 * building and unit with nested objects: a recognized `external_system_id` attaches (other fields
 * ignored); an unrecognized one with a full item creates it under the roster rules, and a failed
 * creation answers 422 with the item's errors (nothing is written: the caller's transaction rolls
 * back). PMS-synced owners are matched on the `pms_*` identifiers. Either way, a managed owner's
 * building not granted to the client is never resolved to (docs/decisions.md, Prospects). Only supplied fields
 * change the resolution: an omitted `property`/`unit` keeps the stored one (a unit only while its
 * building stays), an explicit null clears it; PMS identifiers resolve from the stored ones merged
 * with the supplied ones. `found` is `findReferencedLocation`'s answer when the caller already read it.
 */
export async function resolveLocation(
  tx: Tx,
  owner: Owner,
  clientId: string,
  fields: ProspectFields,
  current: StoredLocation,
  found?: Location,
): Promise<Location> {
  if (fields.property !== undefined) return resolveNested(tx, owner, clientId, fields, current, found);
  if (fields.unit !== undefined) {
    if (current.propertyId === null) return NONE; // a unit resolves only inside a building
    const [property] = await tx.select().from(properties).where(eq(properties.id, current.propertyId));
    return { propertyId: current.propertyId, unitId: fields.unit ? await resolveUnit(tx, owner, property, fields.unit) : null };
  }
  if (fields.pms_type !== undefined || fields.pms_property_id !== undefined || fields.pms_unit_id !== undefined) {
    const merged = {
      pmsType: fields.pms_type !== undefined ? fields.pms_type : current.pmsType,
      pmsPropertyId: fields.pms_property_id !== undefined ? fields.pms_property_id : current.pmsPropertyId,
      pmsUnitId: fields.pms_unit_id !== undefined ? fields.pms_unit_id : current.pmsUnitId,
    };
    // A prospect attached by nested objects (no PMS building named before or now) keeps its building.
    if (merged.pmsPropertyId === null && current.pmsPropertyId === null) return { propertyId: current.propertyId, unitId: current.unitId };
    return resolvePms(tx, owner, clientId, merged);
  }
  return { propertyId: current.propertyId, unitId: current.unitId };
}

async function resolveNested(tx: Tx, owner: Owner, clientId: string, fields: ProspectFields, current: Location, found?: Location): Promise<Location> {
  const item = fields.property;
  if (!item) return NONE;
  const known = found ?? (await findReferencedLocation(tx, owner, clientId, fields)) ?? NONE;
  let propertyId = known.propertyId;
  let knownUnitId: number | null | undefined = known.unitId;
  if (propertyId === null && !isReference(item)) {
    await lockOwnerRoster(tx, owner.id);
    const [result] = await upsertProperties(tx, owner, clientId, [item]);
    if (result.action === "failed") throw errors.invalidNested(PROSPECT_MESSAGES.invalid, "prospect", "property", result.errors ?? {});
    propertyId = (await propertyByExternalId(tx, owner.id, item.external_system_id))?.id ?? null;
    knownUnitId = undefined; // a building created just now: its units are looked up afresh
  }
  if (propertyId === null) return NONE;
  // An omitted unit keeps the stored one while the building stays; it cannot follow to another building.
  if (fields.unit === undefined) return { propertyId, unitId: propertyId === current.propertyId ? current.unitId : null };
  const property = { id: propertyId, externalSystemId: item.external_system_id };
  return { propertyId, unitId: fields.unit ? await resolveUnit(tx, owner, property, fields.unit, knownUnitId) : null };
}

/** `knownUnitId`: the unit's id already read (null: known absent), or undefined to look it up. */
async function resolveUnit(
  tx: Tx,
  owner: Owner,
  property: { id: number; externalSystemId: string | null },
  item: NonNullable<ProspectFields["unit"]>,
  knownUnitId?: number | null,
): Promise<number | null> {
  let unitId = knownUnitId !== undefined ? knownUnitId : ((await unitByExternalId(tx, property.id, item.external_system_id))?.id ?? null);
  if (unitId === null && !isReference(item) && property.externalSystemId) {
    await lockOwnerRoster(tx, owner.id);
    const [result] = await upsertUnits(tx, owner.id, [{ ...item, property_external_id: property.externalSystemId }]);
    if (result.action === "failed") throw errors.invalidNested(PROSPECT_MESSAGES.invalid, "prospect", "unit", result.errors ?? {});
    unitId = (await unitByExternalId(tx, property.id, item.external_system_id))?.id ?? null;
  }
  return unitId;
}

async function resolvePms(tx: Tx, owner: Owner, clientId: string, pms: Omit<StoredLocation, keyof Location>): Promise<Location> {
  if (!pms.pmsPropertyId) return NONE;
  const conditions = [eq(properties.ownerId, owner.id), eq(properties.pmsPropertyId, pms.pmsPropertyId), grantedBuildings(owner, clientId)];
  if (pms.pmsType) conditions.push(eq(properties.pmsType, pms.pmsType));
  const candidates = await tx
    .select()
    .from(properties)
    .where(and(...conditions))
    .orderBy(properties.id);
  for (const property of candidates) {
    if (!pms.pmsUnitId) return { propertyId: property.id, unitId: null };
    const [unit] = await tx
      .select({ id: units.id })
      .from(units)
      .where(and(eq(units.propertyId, property.id), eq(units.pmsUnitId, pms.pmsUnitId)));
    if (unit) return { propertyId: property.id, unitId: unit.id };
  }
  return { propertyId: candidates[0]?.id ?? null, unitId: null };
}

async function propertyByExternalId(tx: Tx, ownerId: number, externalId: string) {
  const [row] = await tx
    .select()
    .from(properties)
    .where(and(eq(properties.ownerId, ownerId), eq(properties.externalSystemId, externalId)));
  return row;
}

async function unitByExternalId(tx: Tx, propertyId: number, externalId: string) {
  const [row] = await tx
    .select()
    .from(units)
    .where(and(eq(units.propertyId, propertyId), eq(units.externalSystemId, externalId)));
  return row;
}
