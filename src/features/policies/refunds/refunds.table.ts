import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { REFUND_STATUSES } from "../../payments/refund-port";
import { policies } from "../policies.table";
import { policyStatusChanges } from "../status/status-changes.table";

/**
 * The refund of a canceled upfront-paid policy (decisions §18 Refunds; docs/decisions.md, "Refunds,
 * disputes and reconciliation"): written `pending` in the cancellation's transaction with the job
 * that asks the processor, then completed with the processor's answer (and later by its webhook).
 */
export const policyRefunds = pgTable(
  "policy_refunds",
  {
    id: serial("id").primaryKey(),
    policyId: integer("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    /** The status change that canceled the policy: the refund's key names it. */
    cancellationId: integer("cancellation_id")
      .notNull()
      .references(() => policyStatusChanges.id, { onDelete: "cascade" }),
    /** `refund:<policy number>:<cancellation id>`, sent as the processor's `Idempotency-Key`. */
    idempotencyKey: text("idempotency_key").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** Our payment row refunded (`payment_charges.id`). */
    paymentChargeId: text("payment_charge_id").notNull(),
    processor: text("processor").notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("pending"),
    /** The processor's refund (`re_…`), once it answered. */
    processorRefundId: text("processor_refund_id"),
    failureReason: text("failure_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("policy_refunds_idempotency_key").on(t.idempotencyKey),
    uniqueIndex("policy_refunds_processor_refund_id").on(t.processorRefundId),
    index("policy_refunds_policy_idx").on(t.policyId, t.id),
    index("policy_refunds_cancellation_idx").on(t.cancellationId),
    index("policy_refunds_charge_idx").on(t.paymentChargeId),
  ],
);

export type PolicyRefund = typeof policyRefunds.$inferSelect;
