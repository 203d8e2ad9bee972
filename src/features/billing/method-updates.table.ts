import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { paymentMethods } from "../payments/payments.table";
import { policies } from "../policies/policies.table";

/**
 * A card the renter put on a monthly policy after buying it ("Update card" in the renter's account,
 * decisions §19): the newest row of a policy is the method its next monthly charge uses, instead of
 * the purchase's (billing/method.ts). Rows are kept, so the console can tell which card paid when.
 */
export const billingMethodUpdates = pgTable(
  "billing_method_updates",
  {
    id: serial("id").primaryKey(),
    policyId: integer("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    methodId: text("method_id")
      .notNull()
      .references(() => paymentMethods.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("billing_method_updates_policy_idx").on(t.policyId, t.id), index("billing_method_updates_method_idx").on(t.methodId)],
);
