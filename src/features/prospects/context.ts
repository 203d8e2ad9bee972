import { eq } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { Tx } from "../../server/db/client";
import { propertyOwners } from "../owners/owners.table";
import { properties, units } from "../roster/roster.table";
import { prospects } from "./prospects.table";
import { sources } from "./sources.table";

/** What every reader of a prospect's context gets: the prospect, its owner, its property and unit. */
const CONTEXT = { prospect: prospects, owner: propertyOwners, property: properties, unit: units };

/** The joins every caller needs; the property and unit are null until the prospect names them. */
function joined<TExtra extends SelectedFields>(db: Tx, extra: TExtra) {
  return db
    .select({ ...CONTEXT, ...extra })
    .from(prospects)
    .innerJoin(propertyOwners, eq(propertyOwners.id, prospects.ownerId))
    .leftJoin(properties, eq(properties.id, prospects.propertyId))
    .leftJoin(units, eq(units.id, prospects.unitId));
}

// The source is joined after the property and unit: PostgreSQL plans the same primary-key lookups
// either way (docs/decisions.md "Structure: one prospect context").
const withSource = <TAlso extends SelectedFields>(db: Tx, also: TAlso) =>
  joined(db, { source: sources, ...also }).innerJoin(sources, eq(sources.id, prospects.sourceId));
const withoutSource = <TAlso extends SelectedFields>(db: Tx, also: TAlso) => joined(db, also);

/**
 * The prospect context (docs/architecture.md "The prospect context"): a prospect with its owner,
 * its source and the property and unit it names (null until resolved), in one statement. The
 * caller adds its filter, order and lock, as drizzle's select builder takes them:
 * `prospectContext(tx).where(eq(prospects.id, id)).for("update", { of: prospects })`.
 * `also` selects the columns of a table the caller joins itself (the underwriting job's
 * application); `source: false` leaves the source out for a caller that never reads it.
 */
export function prospectContext<TAlso extends SelectedFields = Record<never, never>>(
  db: Tx,
  options?: { also?: TAlso; source?: true },
): ReturnType<typeof withSource<TAlso>>;
export function prospectContext<TAlso extends SelectedFields = Record<never, never>>(
  db: Tx,
  options: { also?: TAlso; source: false },
): ReturnType<typeof withoutSource<TAlso>>;
export function prospectContext(db: Tx, options: { also?: SelectedFields; source?: boolean } = {}): unknown {
  return options.source === false ? withoutSource(db, options.also ?? {}) : withSource(db, options.also ?? {});
}
