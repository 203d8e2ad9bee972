import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors, type FieldErrors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { setBuildingActive } from "../activation";
import { normalizeState, normalizeStreetLine, normalizeZip } from "../address";
import { recordAddressHistory } from "../address-history";
import { lockOwnerRoster } from "../lock";
import { ROSTER_MESSAGES } from "../messages";
import { properties } from "../roster.table";
import type { addressCorrection } from "./actions.inputs";
import { type BuildingShow, showBuilding } from "./buildings";
import { BUILDING_MESSAGES as M } from "./messages";

/** Staff actions on a building (decisions §12 Buildings, §4 `building correct-address`), each audited. */

export type AddressCorrection = z.infer<typeof addressCorrection>;

const actorLabel = (actor: AuditActor) => ("user" in actor ? actor.user.email : `cli:${actor.cli}`);

/**
 * decisions §4: the line is stored as given; the state, by abbreviation or full name, as the
 * abbreviation; a ZIP+4 truncated to five digits, as the Partner API does (the roster's normalizers).
 */
export function normalizedCorrection(input: AddressCorrection) {
  const fields: FieldErrors = {};
  if (!input.line_one.trim()) fields.line_one = [M.required];
  if (!input.city.trim()) fields.city = [M.required];
  const state = normalizeState(input.state);
  const zip = normalizeZip(input.zip);
  if (!state) fields.state = [input.state.trim() ? ROSTER_MESSAGES.invalidState : M.required];
  if (!zip) fields.zip = [input.zip.trim() ? ROSTER_MESSAGES.invalidZip : M.required];
  if (Object.keys(fields).length || !state || !zip) throw errors.invalidFields(M.addressInvalid, fields);
  return { lineOne: input.line_one, city: input.city, state, zip };
}

/** The building, with its owner's roster serialized against partner writes for the rest of `tx`. */
async function lockedBuilding(tx: Tx, id: number) {
  const [probe] = await tx.select({ ownerId: properties.ownerId }).from(properties).where(eq(properties.id, id));
  if (!probe) throw errors.notFound(M.buildingNotFound);
  await lockOwnerRoster(tx, probe.ownerId);
  const [building] = await tx.select().from(properties).where(eq(properties.id, id));
  return building;
}

const auditedState = (building: typeof properties.$inferSelect) => ({
  address: { line_one: building.addressLineOne, city: building.city, state: building.state, zip: building.zip },
  address_locked: building.addressLockedAt !== null,
  address_locked_reason: building.addressLockedReason,
});

/**
 * spec Property rules, Address derivation: staff correct the address, which locks it; later unit
 * loads and property refreshes that disagree are recorded, not applied. Written to the derivation
 * history and the audit log in the same transaction.
 */
export async function correctAddress(db: Db, actor: AuditActor, id: number, input: AddressCorrection): Promise<BuildingShow> {
  const address = normalizedCorrection(input);
  return db.transaction(async (tx) => {
    const before = await lockedBuilding(tx, id);
    const [after] = await tx
      .update(properties)
      .set({
        addressLineOne: address.lineOne,
        city: address.city,
        state: address.state,
        zip: address.zip,
        streetKey: normalizeStreetLine(address.lineOne),
        addressLockedAt: new Date(),
        addressLockedReason: "staff_correction",
        updatedAt: new Date(),
      })
      .where(eq(properties.id, id))
      .returning();
    await recordAddressHistory(tx, [{ ...address, propertyId: id, source: "staff_correction", actor: actorLabel(actor) }]);
    await recordAudit(tx, actor, {
      action: "buildings.correct_address",
      subject: { type: "building", id },
      ownerId: after.ownerId,
      before: auditedState(before),
      after: auditedState(after),
    });
    return showBuilding(tx, id);
  });
}

/** Activates or deactivates from the console; prospects are re-evaluated as a property item's `active` does. */
export async function setActiveByStaff(db: Db, actor: AuditActor, id: number, active: boolean): Promise<{ active: boolean; changed: boolean }> {
  return db.transaction(async (tx) => {
    const building = await lockedBuilding(tx, id);
    const changed = await setBuildingActive(tx, building, active);
    if (changed) {
      await recordAudit(tx, actor, {
        action: "buildings.activate",
        subject: { type: "building", id },
        ownerId: building.ownerId,
        before: { active: building.active },
        after: { active },
      });
    }
    return { active, changed };
  });
}
