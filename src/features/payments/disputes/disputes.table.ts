import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { policies } from "../../policies/policies.table";

/**
 * A renter's bank disputing a payment (decisions §18 Disputes; docs/decisions.md, "Refunds,
 * disputes and reconciliation"): one row per processor dispute, kept at the processor's latest
 * state whatever order its events arrive in, and flagging the policy the payment was for.
 */
export const paymentDisputes = pgTable(
  "payment_disputes",
  {
    id: serial("id").primaryKey(),
    processor: text("processor").notNull(),
    /** The processor's dispute (`dp_…`). */
    processorDisputeId: text("processor_dispute_id").notNull(),
    /** The processor's charge and PaymentIntent disputed, as it named them. */
    processorChargeId: text("processor_charge_id"),
    intentId: text("intent_id"),
    /** Our payment row, when the disputed payment is one we recorded. */
    paymentChargeId: text("payment_charge_id"),
    policyId: integer("policy_id").references(() => policies.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    /** The processor's reason (`fraudulent`, `product_not_received`, …). */
    reason: text("reason").notNull(),
    /** The processor's status (`needs_response`, `under_review`, `won`, `lost`, …). */
    status: text("status").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_disputes_processor_dispute_key").on(t.processor, t.processorDisputeId),
    index("payment_disputes_policy_idx").on(t.policyId, t.id),
  ],
);

export type PaymentDispute = typeof paymentDisputes.$inferSelect;
