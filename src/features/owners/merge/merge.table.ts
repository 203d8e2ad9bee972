import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { properties } from "../../roster/roster.table";
import { propertyOwners } from "../owners.table";

export type MergeMoves = {
  buildings: number;
  units: number;
  bank_accounts: number;
  prospects: number;
  policies: number;
  move_outs: number;
  endpoints: number;
  deliveries: number;
  grants: number;
  sources: number;
};
export type MergeConflict = { kind: string; detail: string; resolution: string };

/**
 * A duplicate owner merged into a survivor (decisions §12 Owners: "the merge is recorded"). Kept
 * forever; it also holds the duplicate's signing secret, signed with beside the survivor's until
 * `secret_valid_until` (as in a rotation).
 */
export const ownerMerges = pgTable(
  "owner_merges",
  {
    id: serial("id").primaryKey(),
    fromOwnerId: integer("from_owner_id")
      .notNull()
      .references(() => propertyOwners.id),
    intoOwnerId: integer("into_owner_id")
      .notNull()
      .references(() => propertyOwners.id),
    fromSlug: text("from_slug").notNull(),
    intoSlug: text("into_slug").notNull(),
    moved: jsonb("moved").$type<MergeMoves>().notNull(),
    conflicts: jsonb("conflicts").$type<MergeConflict[]>().notNull(),
    /** Who merged: `staff@example.com` or `cli:<user>` (the audit row has the rest). */
    actor: text("actor").notNull(),
    mergedAt: timestamp("merged_at", { withTimezone: true }).notNull(),
    /** The duplicate's signing secret, sealed; never shown. */
    fromSigningSecretEncrypted: text("from_signing_secret_encrypted").notNull(),
    secretValidUntil: timestamp("secret_valid_until", { withTimezone: true }).notNull(),
  },
  (t) => [index("owner_merges_from_idx").on(t.fromOwnerId), index("owner_merges_into_idx").on(t.intoOwnerId, t.secretValidUntil)],
);

/**
 * Buildings that moved in a merge, reachable by the clients that had the duplicate, when the
 * survivor is a managed owner (whose clients otherwise reach only buildings granted by PMS pair):
 * "clients with access to the duplicate keep access to what moved" (decisions §12).
 */
export const ownerMergeBuildingAccess = pgTable(
  "owner_merge_building_access",
  {
    mergeId: integer("merge_id")
      .notNull()
      .references(() => ownerMerges.id),
    clientId: text("client_id").notNull(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.propertyId, t.mergeId] }),
    index("owner_merge_building_access_property_idx").on(t.propertyId),
    index("owner_merge_building_access_merge_idx").on(t.mergeId),
  ],
);
