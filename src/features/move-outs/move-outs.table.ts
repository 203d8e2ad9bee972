import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { propertyOwners } from "../owners/owners.table";

export type MoveOutProperty = { address_line_one: string; address_city: string; address_state: string; address_zip: string; external_id?: string | null };
export type MoveOutUnit = { external_id?: string | null; name?: string | null };
export type MoveOutResident = { role: "primary" | "co_resident"; name: string; email?: string | null; external_id?: string | null };

/** A move-out (spec Move-out). Stands alone: property, unit and residents are stored exactly as sent. */
export const moveOuts = pgTable(
  "move_outs",
  {
    id: serial("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    /** The API client that created it: only that partner reaches it (docs/decisions.md, Move-outs). */
    clientId: text("client_id"),
    externalId: text("external_id").notNull(),
    moveOutDate: text("move_out_date").notNull(),
    property: jsonb("property").$type<MoveOutProperty>().notNull(),
    unit: jsonb("unit").$type<MoveOutUnit>(),
    residents: jsonb("residents").$type<MoveOutResident[]>().notNull(),
    refundAmountCents: integer("refund_amount_cents"),
    depositAmountCents: integer("deposit_amount_cents"),
    leaseStart: text("lease_start"),
    leaseEnd: text("lease_end"),
    status: text("status", { enum: ["initiated"] })
      .notNull()
      .default("initiated"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("move_outs_owner_external_key").on(t.ownerId, t.externalId), index("move_outs_owner_idx").on(t.ownerId)],
);

export type MoveOut = typeof moveOuts.$inferSelect;
