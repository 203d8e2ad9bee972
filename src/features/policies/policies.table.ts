import { sql } from "drizzle-orm";
import { date, index, integer, pgSequence, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { applications } from "../enrollment/applications/applications.table";
import { propertyOwners } from "../owners/owners.table";
import { prospects } from "../prospects/prospects.table";
import { properties, units } from "../roster/roster.table";

/** Feeds the six-digit part of policy numbers (`PIS-<year>-<000001>`; docs/decisions.md, Policies). */
export const policyNumberSequence = pgSequence("policy_number_seq", { startWith: 1, increment: 1 });

export const POLICY_STATUSES = ["pending", "upcoming", "active", "expired", "canceled"] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];
export const POLICY_PRODUCTS = ["security_deposit_insurance", "renter_guarantee_insurance", "service_deposit"] as const;
export type PolicyProduct = (typeof POLICY_PRODUCTS)[number];

/** An issued policy (spec Policy payload; decisions §11 Policy status). */
export const policies = pgTable(
  "policies",
  {
    id: serial("id").primaryKey(),
    policyNumber: text("policy_number").notNull(),
    applicationId: integer("application_id").references(() => applications.id, { onDelete: "set null" }),
    prospectId: integer("prospect_id").references(() => prospects.id, { onDelete: "set null" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id),
    status: text("status", { enum: POLICY_STATUSES }).notNull().default("pending"),
    productType: text("product_type", { enum: POLICY_PRODUCTS }).notNull(),
    /** Guarantee product only (spec: `product_version` only for `renter_guarantee_insurance`). */
    productVersion: text("product_version"),
    coverageAmountCents: integer("coverage_amount_cents").notNull(),
    coverageStartDate: date("coverage_start_date", { mode: "string" }).notNull(),
    coverageEndDate: date("coverage_end_date", { mode: "string" }).notNull(),
    premiumCents: integer("premium_cents").notNull(),
    cadence: text("cadence", { enum: ["upfront", "monthly"] }).notNull(),
    /** The partner's id of the prospect the policy came from; null when it did not come from one. */
    sourceProspectId: text("source_prospect_id"),
    pmsType: text("pms_type", { enum: ["pms_one", "pms_two"] }),
    pmsPropertyId: text("pms_property_id"),
    pmsUnitId: text("pms_unit_id"),
    pmsResidentId: text("pms_resident_id"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("policies_policy_number_key").on(t.policyNumber),
    // One policy per application: a retried issuance finds the first one.
    uniqueIndex("policies_application_key").on(t.applicationId),
    index("policies_prospect_idx").on(t.prospectId),
    index("policies_owner_idx").on(t.ownerId, t.id),
    index("policies_property_idx").on(t.propertyId),
    index("policies_unit_idx").on(t.unitId),
    // The status sweep's two halves (lifecycle/sweep.ts): live policies by end, upcoming ones by start.
    index("policies_live_end_idx").on(t.coverageEndDate).where(sql`${t.status} in ('upcoming', 'active')`),
    index("policies_upcoming_start_idx").on(t.coverageStartDate).where(sql`${t.status} = 'upcoming'`),
  ],
);

export type Policy = typeof policies.$inferSelect;

/** A cash deposit taken instead of a policy (decisions §10 step (4); `latest_coverage.type` `cash_deposit`). */
export const cashDeposits = pgTable(
  "cash_deposits",
  {
    id: serial("id").primaryKey(),
    applicationId: integer("application_id").references(() => applications.id, { onDelete: "set null" }),
    prospectId: integer("prospect_id").references(() => prospects.id, { onDelete: "set null" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id),
    amountCents: integer("amount_cents").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cash_deposits_application_key").on(t.applicationId),
    index("cash_deposits_prospect_idx").on(t.prospectId),
    index("cash_deposits_owner_idx").on(t.ownerId),
    index("cash_deposits_unit_idx").on(t.unitId),
  ],
);

export type CashDeposit = typeof cashDeposits.$inferSelect;
