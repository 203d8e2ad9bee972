import { index, integer, pgTable, serial, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { propertyOwners } from "../../owners/owners.table";
import { cashDeposits, policies } from "../../policies/policies.table";
import { units } from "../../roster/roster.table";
import { renterUsers } from "./users.table";

/**
 * A resident (tenant) record (decisions §10 Renters): links a renter's user to the unit once covered,
 * by a policy or a cash deposit. One per user and unit; a later coverage of the same unit updates
 * its links. The staging reset deletes it (spec Reset rule: "tenant record removed"); a policy or
 * deposit deleted otherwise only unlinks it (set null).
 */
export const residents = pgTable(
  "residents",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => renterUsers.id),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id),
    policyId: integer("policy_id").references(() => policies.id, { onDelete: "set null" }),
    cashDepositId: integer("cash_deposit_id").references(() => cashDeposits.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("residents_user_unit_key").on(t.userId, t.unitId),
    index("residents_owner_idx").on(t.ownerId),
    index("residents_unit_idx").on(t.unitId),
    index("residents_policy_idx").on(t.policyId),
    index("residents_cash_deposit_idx").on(t.cashDepositId),
  ],
);

export type Resident = typeof residents.$inferSelect;
