import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { POLICY_STATUSES, policies } from "../policies.table";

/**
 * Every change of a policy's status (decisions §11 Policy status): issuance, the daily cron, staff
 * cancellation and revisions. `reason` is internal (spec: `policy.canceled` carries no reason); it
 * is shown in the console only. `actor` is `system:<task>`, `console:<email>` or `cli:<user>`.
 */
export const policyStatusChanges = pgTable(
  "policy_status_changes",
  {
    id: serial("id").primaryKey(),
    policyId: integer("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    fromStatus: text("from_status", { enum: POLICY_STATUSES }),
    toStatus: text("to_status", { enum: POLICY_STATUSES }).notNull(),
    reason: text("reason"),
    actor: text("actor").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("policy_status_changes_policy_idx").on(t.policyId, t.id)],
);

export type PolicyStatusChange = typeof policyStatusChanges.$inferSelect;
