import { sql } from "drizzle-orm";
import { date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { policies } from "../policies/policies.table";

/**
 * Monthly billing (decisions §11 Billing; docs/decisions.md, Billing and delinquencies). A row of
 * `billing_charges` exists before the processor is called and is completed after, so a retried job
 * or a second run finds it and never charges twice; its id is the processor's idempotency key.
 */

export const DELINQUENCY_STATUSES = ["active", "resolved"] as const;
export type DelinquencyStatus = (typeof DELINQUENCY_STATUSES)[number];

/** A missed premium payment (spec Delinquency payload): at most one `active` per policy. */
export const delinquencies = pgTable(
  "delinquencies",
  {
    id: serial("id").primaryKey(),
    policyId: integer("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELINQUENCY_STATUSES }).notNull().default("active"),
    /** What is outstanding now (spec `amount_cents`): the missed months added up; 0 once resolved. */
    amountCents: integer("amount_cents").notNull(),
    /** What the settlement charged (null until resolved). */
    settledCents: integer("settled_cents"),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open delinquency per policy: a second failed month adds to it (an upsert on this index).
    uniqueIndex("delinquencies_one_active_per_policy").on(t.policyId).where(sql`${t.status} = 'active'`),
    index("delinquencies_policy_idx").on(t.policyId, t.id),
    index("delinquencies_status_idx").on(t.status, t.id),
  ],
);

export const BILLING_CHARGE_KINDS = ["period", "settlement"] as const;
export const BILLING_CHARGE_STATUSES = ["pending", "succeeded", "declined"] as const;
export type BillingChargeStatus = (typeof BILLING_CHARGE_STATUSES)[number];

/** One charge of a policy: a month's premium (`period`), or what settled a delinquency (`settlement`). */
export const billingCharges = pgTable(
  "billing_charges",
  {
    id: serial("id").primaryKey(),
    policyId: integer("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: BILLING_CHARGE_KINDS }).notNull(),
    /**
     * Which month of the coverage it pays for (`period` only): 1 is the first month after the one
     * paid at purchase. Unique per policy, so a revision that moves the coverage dates never makes a
     * month chargeable twice.
     */
    periodIndex: integer("period_index"),
    /** That month's first day, as scheduled when it was charged. */
    periodStart: date("period_start", { mode: "string" }),
    amountCents: integer("amount_cents").notNull(),
    /** `pending` from before the processor is called until its answer is recorded. */
    status: text("status", { enum: BILLING_CHARGE_STATUSES }).notNull().default("pending"),
    /** The processor's charge id (`ch_…`), once answered. */
    processorChargeId: text("processor_charge_id"),
    declineCode: text("decline_code"),
    /** The delinquency a declined period opened or added to; the one a settlement (any attempt) was for. */
    delinquencyId: integer("delinquency_id").references(() => delinquencies.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    // Each month is charged once, whoever runs the cron and however often.
    uniqueIndex("billing_charges_policy_period_key").on(t.policyId, t.periodIndex).where(sql`${t.kind} = 'period'`),
    index("billing_charges_policy_idx").on(t.policyId, t.id),
    index("billing_charges_pending_idx").on(t.id).where(sql`${t.status} = 'pending'`),
  ],
);

export type Delinquency = typeof delinquencies.$inferSelect;
export type BillingCharge = typeof billingCharges.$inferSelect;
