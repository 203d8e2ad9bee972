import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { properties } from "./roster.table";

/** Where a building's stored address came from (decisions §12, Buildings: derivation history). */
export const ADDRESS_SOURCES = ["units", "properties", "staff_correction", "policy_lock"] as const;
export type AddressSource = (typeof ADDRESS_SOURCES)[number];

/**
 * One row per change of a building's stored address (and per lock), with its source: derived from
 * units, sent on the property item, corrected by staff, or locked by the first policy.
 */
export const addressHistory = pgTable(
  "address_history",
  {
    id: serial("id").primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    source: text("source", { enum: ADDRESS_SOURCES }).notNull(),
    lineOne: text("line_one").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zip: text("zip").notNull(),
    /** Who made a staff correction (`cli:<user>` or the staff member's email); null otherwise. */
    actor: text("actor"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("address_history_property_idx").on(t.propertyId, t.id)],
);
