import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { propertyOwners } from "../../owners/owners.table";
import { prospects } from "../../prospects/prospects.table";
import { renterUsers } from "../renters/users.table";
import type { UnderwritingOutcome } from "../underwriting/underwrite";

export const APPLICATION_PRODUCTS = ["security_deposit_insurance", "cash_deposit", "renter_guarantee_insurance"] as const;
export type ApplicationProduct = (typeof APPLICATION_PRODUCTS)[number];
export const CADENCES = ["upfront", "monthly"] as const;
export type Cadence = (typeof CADENCES)[number];
/** decisions §10 Markers: the steps of the flow, stored so reopening the link resumes there. */
export const APPLICATION_STEPS = ["details", "quote", "choose", "pay", "result"] as const;
export type ApplicationStep = (typeof APPLICATION_STEPS)[number];

/** The renter's details as entered on the flow's first step (phone: 10 digits; birthdate: YYYY-MM-DD). */
export type Applicant = { firstName: string; lastName: string; phone: string; birthdate: string };

/**
 * A renter's application (decisions §10 step (1); spec Policy application payload, `pa_<id>`).
 * `status` is the record's status (`created` or `canceled`), never the outcome: the outcome of
 * underwriting is kept apart in `outcome` and announced by the event name.
 */
export const applications = pgTable(
  "applications",
  {
    id: serial("id").primaryKey(),
    prospectId: integer("prospect_id")
      .notNull()
      .references(() => prospects.id, { onDelete: "cascade" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    /** The renter's user (decisions §10 Renters), by the prospect's email; null only on rows of before it. */
    userId: integer("user_id").references(() => renterUsers.id),
    status: text("status", { enum: ["created", "canceled"] })
      .notNull()
      .default("created"),
    /** Omitted from payloads until chosen or preselected (decisions §10). */
    productType: text("product_type", { enum: APPLICATION_PRODUCTS }),
    /** Guarantee only: the product version underwriting quoted (`2025.12.01`). */
    productVersion: text("product_version"),
    cadence: text("cadence", { enum: CADENCES }),
    /** The underwriting outcome as `underwrite()` answered it: offers, prices, reasons. */
    quote: jsonb("quote").$type<UnderwritingOutcome>(),
    outcome: text("outcome", { enum: ["quoted", "declined"] }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    step: text("step", { enum: APPLICATION_STEPS }).notNull().default("details"),
    /** What the renter entered on the details step (decisions §10 step (1)); the partner's prospect is left as sent. */
    applicant: jsonb("applicant").$type<Applicant>(),
    disclosuresAcceptedAt: timestamp("disclosures_accepted_at", { withTimezone: true }),
    /** Why the flow cannot go on for this renter (`identity_check_failed`); the flow shows it blocked. */
    blockedReason: text("blocked_reason"),
    /** The successful charge (decisions §10 step (4)): the processor's reference, never the card number. */
    paymentChargeId: text("payment_charge_id"),
    paymentAmountCents: integer("payment_amount_cents"),
    paymentLast4: text("payment_last4"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /**
     * The payment attempt in flight, or whose outcome was never recorded (decisions §10 Payment): its
     * idempotency key and amount. Every submission while it is set replays it, so two tabs or a retry
     * after a crash charge once; a decline or a refused card clears it.
     */
    paymentKey: text("payment_key"),
    paymentKeyAmountCents: integer("payment_key_amount_cents"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open application per prospect: a second start (another tab, a double click) finds it.
    uniqueIndex("applications_open_per_prospect_key").on(t.prospectId).where(sql`${t.status} = 'created'`),
    index("applications_prospect_idx").on(t.prospectId),
    index("applications_owner_idx").on(t.ownerId),
    index("applications_user_idx").on(t.userId),
  ],
);

export type Application = typeof applications.$inferSelect;
