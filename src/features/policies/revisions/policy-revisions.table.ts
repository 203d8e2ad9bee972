import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { policies } from "../policies.table";

/** The revisable state of a policy, as a revision row keeps it before and after (docs/decisions.md, Policies: revisions and cancellation). */
export type RevisedState = {
  coverage_amount_cents: number;
  coverage_start_date: string;
  coverage_end_date: string;
  unit: { id: number; name: string; external_id: string | null };
  status: string;
};

/**
 * Every staff revision of a policy (docs/decisions.md, "Policies: revisions and cancellation"): who, when, the revisable state before and
 * after, and the staff's note (internal, never in a payload). Written in the revision's transaction.
 */
export const policyRevisions = pgTable(
  "policy_revisions",
  {
    id: serial("id").primaryKey(),
    policyId: integer("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    /** `console:<email>` or `cli:<user>`. */
    actor: text("actor").notNull(),
    before: jsonb("before").$type<RevisedState>().notNull(),
    after: jsonb("after").$type<RevisedState>().notNull(),
    note: text("note"),
    revisedAt: timestamp("revised_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("policy_revisions_policy_idx").on(t.policyId, t.id)],
);

export type PolicyRevision = typeof policyRevisions.$inferSelect;
