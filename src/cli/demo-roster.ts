import { and, eq } from "drizzle-orm";
import { type Owner, upsertOwner } from "../features/owners/service";
import { upsertBankAccounts } from "../features/roster/bank-accounts";
import type { ItemResult } from "../features/roster/collection";
import { lockOwnerRoster } from "../features/roster/lock";
import { upsertProperties } from "../features/roster/properties";
import { bankAccounts, properties, units } from "../features/roster/roster.table";
import { upsertUnits } from "../features/roster/units";
import type { Tx } from "../server/db/client";
import { errors } from "../server/errors";

/**
 * The demo owner's roster (docs/decisions.md, "Enrollment: demo seed and local frame origins"): what a partner sends in the spec's "Provisioning order
 * for a partner-created owner", so the first prospect POST of a newcomer gets an `enrollment_url`.
 */
const STREET = { line_one: "1200 Barton Springs Rd", city: "Austin", state: "TX", zip: "78704" };

export const DEMO_BANK_ACCOUNT = {
  external_system_id: "demo-operating",
  display_name: "Demo operating account",
  routing_number: "021000021",
  account_number: "000123456789",
};

export const DEMO_PROPERTY = {
  external_system_id: "demo-barton-springs",
  building_name: "Barton Springs Lofts",
  address: STREET,
  type: "multifamily" as const,
  active: true,
};

export const DEMO_UNITS = ["101", "102", "201", "202"].map((name) => ({
  external_system_id: `demo-unit-${name}`,
  property_external_id: DEMO_PROPERTY.external_system_id,
  name,
  address: { ...STREET, line_two: `Apt ${name}` },
}));

/**
 * A second building for the /demo page's guarantee renter (docs/decisions.md, Demo page): created
 * once the owner is guarantor-capable, so it carries the guarantee product (spec Property rules,
 * Guarantee on creation); the first building stays a deposit-products building.
 */
export const DEMO_GUARANTEE_PROPERTY = {
  external_system_id: "demo-guarantee-court",
  building_name: "Guarantee Court",
  address: { line_one: "800 W 6th St", city: "Austin", state: "TX", zip: "78703" },
  type: "multifamily" as const,
  active: true,
};

export const DEMO_GUARANTEE_UNIT = {
  external_system_id: "demo-guarantee-unit-1",
  property_external_id: DEMO_GUARANTEE_PROPERTY.external_system_id,
  name: "1A",
  address: { ...DEMO_GUARANTEE_PROPERTY.address, line_two: "Apt 1A" },
};

/**
 * decisions §13: the /demo page frames the flow from `127.0.0.1` while the enrollment host is
 * `localhost` (or the reverse). In staging both are the demo owner's own `embedded_frame_ancestors`,
 * so no other owner's embedded pages can be framed from them (docs/decisions.md "Hardening: the
 * CLI, merged links, demo framing"). Production accepts HTTPS origins only (decisions §10), so
 * nothing is added there.
 */
export function demoFrameOrigins(port: number, appEnv: "staging" | "production"): string[] {
  if (appEnv !== "staging") return [];
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

/**
 * Brings the demo owner to its complete state through the domain functions the Partner API uses
 * (bank account → building → units → activation, spec Provisioning order), writing only what is
 * missing: on a complete owner it writes nothing, so every `npm start` after the first changes nothing.
 */
export async function provisionDemoOwner(tx: Tx, initial: Owner, clientId: string, frameAncestors: readonly string[]): Promise<Owner> {
  let owner = initial;
  await lockOwnerRoster(tx, owner.id);
  const [account] = await tx
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.ownerId, owner.id), eq(bankAccounts.externalSystemId, DEMO_BANK_ACCOUNT.external_system_id)));
  if (!account) expectWritten("bank account", await upsertBankAccounts(tx, owner.id, [DEMO_BANK_ACCOUNT]));

  const [building] = await tx
    .select({ id: properties.id, active: properties.active })
    .from(properties)
    .where(and(eq(properties.ownerId, owner.id), eq(properties.externalSystemId, DEMO_PROPERTY.external_system_id)));
  if (!building?.active) expectWritten("building", await upsertProperties(tx, owner, clientId, [DEMO_PROPERTY]));

  const present = building
    ? new Set((await tx.select({ id: units.externalSystemId }).from(units).where(eq(units.propertyId, building.id))).map((unit) => unit.id))
    : new Set<string | null>();
  const missing = DEMO_UNITS.filter((unit) => !present.has(unit.external_system_id));
  if (missing.length) expectWritten("units", await upsertUnits(tx, owner.id, missing));

  owner = await provisionGuaranteeBuilding(tx, owner, clientId);

  const ancestors = [...owner.embeddedFrameAncestors, ...frameAncestors.filter((origin) => !owner.embeddedFrameAncestors.includes(origin))];
  if (owner.purchaseFlowEnabled && ancestors.length === owner.embeddedFrameAncestors.length) return owner;
  // spec Property owner activation: accepted now that the roster is loaded (same transaction).
  const { owner: updated } = await upsertOwner(tx, clientId, {
    external_org_id: owner.externalOrgId,
    purchase_flow_enabled: true,
    embedded_frame_ancestors: ancestors,
  });
  return updated;
}

/** The guarantee building and its unit, when missing; the owner turns guarantor-capable first. */
async function provisionGuaranteeBuilding(tx: Tx, owner: Owner, clientId: string): Promise<Owner> {
  const [building] = await tx
    .select({ id: properties.id })
    .from(properties)
    .where(and(eq(properties.ownerId, owner.id), eq(properties.externalSystemId, DEMO_GUARANTEE_PROPERTY.external_system_id)));
  let current = owner;
  if (!building) {
    if (!current.guarantorCoverageCapable) {
      ({ owner: current } = await upsertOwner(tx, clientId, { external_org_id: owner.externalOrgId, guarantor_coverage_capable: true }));
    }
    expectWritten("guarantee building", await upsertProperties(tx, current, clientId, [DEMO_GUARANTEE_PROPERTY]));
  }
  const [unit] = building
    ? await tx
        .select({ id: units.id })
        .from(units)
        .where(and(eq(units.propertyId, building.id), eq(units.externalSystemId, DEMO_GUARANTEE_UNIT.external_system_id)))
    : [];
  if (!unit) expectWritten("guarantee unit", await upsertUnits(tx, current.id, [DEMO_GUARANTEE_UNIT]));
  return current;
}

/** The demo data is ours: an item the roster refuses is a bug of the seed, reported with its errors. */
function expectWritten(what: string, results: ItemResult[]): void {
  const failed = results.filter((result) => result.action === "failed");
  if (failed.length) throw errors.invalid(`The demo ${what} was refused: ${JSON.stringify(failed.map((result) => result.errors))}`);
}
