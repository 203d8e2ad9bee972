import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Payments (decisions §10, §11). No column ever holds a card number or a security code: a charge
 * keeps last4 and brand, a stored method a processor's token.
 */

export const PAYMENT_STATUSES = ["pending", "requires_action", "processing", "succeeded", "declined", "canceled"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A card kept for later charges (monthly billing, decisions §11). */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    /** Our reference, `pm_…`, handed to `charge({methodId})`. */
    id: text("id").primaryKey(),
    /** Which processor issued `token` (`simulated`, later a real one). */
    processor: text("processor").notNull(),
    last4: text("last4").notNull(),
    brand: text("brand").notNull(),
    expMonth: integer("exp_month").notNull(),
    expYear: integer("exp_year").notNull(),
    /** The processor's reference for the card (Stripe's `pm_…`); the simulated processor's is random, never the number. */
    token: text("token").notNull(),
    /** The processor's customer the card is saved on (Stripe's `cus_…`), for off-session charges (decisions §18). */
    customerId: text("customer_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_methods_processor_token").on(t.processor, t.token)],
);

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
    /**
     * `succeeded` and `declined` are final; a processor's intent (decisions §18) is first `pending`,
     * then may wait on the renter's bank (`requires_action`) or the network (`processing`).
     */
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    declineCode: text("decline_code"),
    /** Known once a card was confirmed (a pending intent has none yet). */
    last4: text("last4"),
    brand: text("brand"),
    methodId: text("method_id").references(() => paymentMethods.id),
    /** What is paid for (`policy:<number>`, `application:<pa_id>`): `billing fail-next` targets it. */
    subject: text("subject"),
    description: text("description").notNull(),
    processor: text("processor").notNull(),
    /**
     * The processor's PaymentIntent (`pi_…`), recorded as soon as it is created and looked up before
     * creating another (Stripe keeps idempotency keys about 24 hours, decisions §18). Unique: one
     * intent pays one record, so its success is applied once whichever of the return and the webhook
     * comes first.
     */
    intentId: text("intent_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_charges_idempotency_key").on(t.idempotencyKey),
    uniqueIndex("payment_charges_intent_id").on(t.intentId),
    index("payment_charges_method_idx").on(t.methodId),
    index("payment_charges_subject_idx").on(t.subject),
  ],
);

/** The processor's customer of a renter (decisions §18: a Customer per renter), created once. */
export const paymentCustomers = pgTable(
  "payment_customers",
  {
    processor: text("processor").notNull(),
    /** The renter, by the email the link was signed for (lowercased): one customer whatever the application. */
    renterEmail: text("renter_email").notNull(),
    customerId: text("customer_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.processor, t.renterEmail] })],
);

/** Staging: the simulated processor declines the next charge of this subject, once (`billing fail-next`). */
export const paymentFailNext = pgTable("payment_fail_next", {
  subject: text("subject").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type PaymentCharge = typeof paymentCharges.$inferSelect;
export type PaymentMethod = typeof paymentMethods.$inferSelect;
