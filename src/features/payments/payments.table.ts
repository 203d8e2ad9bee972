import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Payments (decisions §10, §11). No column ever holds a card number or a security code: a charge
 * keeps last4 and brand, a stored method a processor's token.
 */

/** A card kept for later charges (monthly billing, decisions §11). */
export const paymentMethods = pgTable("payment_methods", {
  /** Our reference, `pm_…`, handed to `charge({methodId})`. */
  id: text("id").primaryKey(),
  /** Which processor issued `token` (`simulated`, later a real one). */
  processor: text("processor").notNull(),
  last4: text("last4").notNull(),
  brand: text("brand").notNull(),
  expMonth: integer("exp_month").notNull(),
  expYear: integer("exp_year").notNull(),
  /** The processor's reference for the card; the simulated processor's is random, never the number. */
  token: text("token").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Every charge attempt that reached a processor, succeeded or declined (one per idempotency key). */
export const paymentCharges = pgTable(
  "payment_charges",
  {
    /** `ch_…`, the `chargeId` of the result. */
    id: text("id").primaryKey(),
    /** The caller's key: a retried job or a double submit gets the first result, never a second charge. */
    idempotencyKey: text("idempotency_key").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: ["succeeded", "declined"] }).notNull(),
    declineCode: text("decline_code"),
    last4: text("last4").notNull(),
    brand: text("brand").notNull(),
    methodId: text("method_id").references(() => paymentMethods.id),
    /** What is paid for (`policy:<number>`, `application:<pa_id>`): `billing fail-next` targets it. */
    subject: text("subject"),
    description: text("description").notNull(),
    processor: text("processor").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_charges_idempotency_key").on(t.idempotencyKey),
    index("payment_charges_method_idx").on(t.methodId),
    index("payment_charges_subject_idx").on(t.subject),
  ],
);

/** Staging: the simulated processor declines the next charge of this subject, once (`billing fail-next`). */
export const paymentFailNext = pgTable("payment_fail_next", {
  subject: text("subject").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type PaymentCharge = typeof paymentCharges.$inferSelect;
export type PaymentMethod = typeof paymentMethods.$inferSelect;
