import { integer, jsonb, pgTable, timestamp } from "drizzle-orm/pg-core";
import { propertyOwners } from "../../owners/owners.table";
import type { UnderwritingRulesOverride } from "./rules";

/**
 * An owner's override of the default underwriting rules (docs/underwriting.md). One row per owner;
 * `rules` holds only the fields that differ, validated by `underwritingRulesOverrideSchema` on write.
 */
export const underwritingRules = pgTable("underwriting_rules", {
  ownerId: integer("owner_id")
    .primaryKey()
    .references(() => propertyOwners.id, { onDelete: "cascade" }),
  rules: jsonb("rules").$type<UnderwritingRulesOverride>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
