import { and, eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import type { Owner } from "../owners/service";
import { lockOwnerRoster } from "../roster/lock";
import { upsertProperties } from "../roster/properties";
import { properties, units } from "../roster/tables";
import { upsertUnits } from "../roster/units";
import { PROSPECT_MESSAGES } from "./messages";
import type { ProspectFields } from "./schemas";

export type Location = { propertyId: number | null; unitId: number | null };

const isReference = (item: object) => Object.keys(item).length === 1;

/**
 * spec Prospect rules 4-5. Owners provisioned through onboarding name the building and unit with
 * nested objects: a recognized `external_system_id` attaches (other fields ignored); an unrecognized
 * one with a full item creates it under the roster rules, and a failed creation answers 422 with the
 * item's errors (nothing is written: the caller's transaction rolls back). PMS-synced owners are
 * matched on the `pms_*` identifiers.
 */
export async function resolveLocation(tx: Tx, owner: Owner, clientId: string, fields: ProspectFields, current: Location): Promise<Location> {
  if (fields.property !== undefined) return resolveNested(tx, owner, clientId, fields);
  if (fields.unit !== undefined && current.propertyId !== null) {
    const [property] = await tx.select().from(properties).where(eq(properties.id, current.propertyId));
    return { propertyId: current.propertyId, unitId: fields.unit ? await resolveUnit(tx, owner, property, fields.unit) : null };
  }
  if (fields.pms_property_id !== undefined || fields.pms_unit_id !== undefined) return resolvePms(tx, owner, fields);
  return current;
}

async function resolveNested(tx: Tx, owner: Owner, clientId: string, fields: ProspectFields): Promise<Location> {
  const item = fields.property;
  if (!item) return { propertyId: null, unitId: null };
  let property = await propertyByExternalId(tx, owner.id, item.external_system_id);
  if (!property && !isReference(item)) {
    await lockOwnerRoster(tx, owner.id);
    const [result] = await upsertProperties(tx, owner, clientId, [item]);
    if (result.action === "failed") throw errors.invalidResource(PROSPECT_MESSAGES.invalid, "prospect", { property: result.errors });
    property = await propertyByExternalId(tx, owner.id, item.external_system_id);
  }
  if (!property) return { propertyId: null, unitId: null };
  return { propertyId: property.id, unitId: fields.unit ? await resolveUnit(tx, owner, property, fields.unit) : null };
}

async function resolveUnit(tx: Tx, owner: Owner, property: typeof properties.$inferSelect, item: NonNullable<ProspectFields["unit"]>): Promise<number | null> {
  let unit = await unitByExternalId(tx, property.id, item.external_system_id);
  if (!unit && !isReference(item) && property.externalSystemId) {
    await lockOwnerRoster(tx, owner.id);
    const [result] = await upsertUnits(tx, owner.id, [{ ...item, property_external_id: property.externalSystemId }]);
    if (result.action === "failed") throw errors.invalidResource(PROSPECT_MESSAGES.invalid, "prospect", { unit: result.errors });
    unit = await unitByExternalId(tx, property.id, item.external_system_id);
  }
  return unit?.id ?? null;
}

async function resolvePms(tx: Tx, owner: Owner, fields: ProspectFields): Promise<Location> {
  if (!fields.pms_property_id) return { propertyId: null, unitId: null };
  const conditions = [eq(properties.ownerId, owner.id), eq(properties.pmsPropertyId, fields.pms_property_id)];
  if (fields.pms_type) conditions.push(eq(properties.pmsType, fields.pms_type));
  const candidates = await tx
    .select()
    .from(properties)
    .where(and(...conditions))
    .orderBy(properties.id);
  for (const property of candidates) {
    if (!fields.pms_unit_id) return { propertyId: property.id, unitId: null };
    const [unit] = await tx
      .select({ id: units.id })
      .from(units)
      .where(and(eq(units.propertyId, property.id), eq(units.pmsUnitId, fields.pms_unit_id)));
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
