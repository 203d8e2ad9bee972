import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { UnderwritingOutcome } from "../enrollment/underwriting/underwrite";
import { propertyOwners } from "../owners/owners.table";
import { properties, units } from "../roster/roster.table";
import { sources } from "./sources.table";

/** The eligibility decision written by the eligibility job (spec Prospect response fields). */
export type EligibilityDecision = {
  sdi: string[];
  cd: string[];
  /**
   * Present only for guarantor-coverage prospects. No status when eligibility could not be
   * determined (status `error`): the guarantee was neither granted nor declined.
   */
  rg?: { status?: "eligible" | "ineligible"; reasons: string[] };
  eligible: boolean;
};

/** A renter pushed by a partner (spec Prospect). Key: (source, source_prospect_id) per owner. */
export const prospects = pgTable(
  "prospects",
  {
    id: serial("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    sourceId: integer("source_id")
      .notNull()
      .references(() => sources.id),
    source: text("source").notNull(),
    sourceProspectId: text("source_prospect_id").notNull(),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }).notNull(),
    email: text("email"),
    phone: text("phone"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    birthdate: text("birthdate"),
    leaseStartDate: text("lease_start_date"),
    leaseEndDate: text("lease_end_date"),
    monthlyRentCents: integer("monthly_rent_cents"),
    depositAmountCents: integer("deposit_amount_cents"),
    guarantorCoverage: boolean("guarantor_coverage").notNull().default(false),
    screeningResult: text("screening_result"),
    employmentStatus: text("employment_status"),
    yearlyIncome: doublePrecision("yearly_income"),
    hasSsn: boolean("has_ssn"),
    /** Sealed at rest; never echoed. */
    ssnEncrypted: text("ssn_encrypted"),
    educationLevel: text("education_level"),
    citizenship: text("citizenship"),
    pmsType: text("pms_type", { enum: ["pms_one", "pms_two"] }),
    pmsPropertyId: text("pms_property_id"),
    pmsUnitId: text("pms_unit_id"),
    pmsProspectId: text("pms_prospect_id"),
    propertyId: integer("property_id").references(() => properties.id, { onDelete: "set null" }),
    unitId: integer("unit_id").references(() => units.id, { onDelete: "set null" }),
    authorizedMembers: jsonb("authorized_members").$type<Array<Record<string, unknown>>>(),
    status: text("status", { enum: ["incomplete", "processing", "ready", "error"] })
      .notNull()
      .default("incomplete"),
    /** Incremented by every write: an eligibility job for an older version does nothing. */
    version: integer("version").notNull().default(1),
    eligibility: jsonb("eligibility").$type<EligibilityDecision>(),
    effectiveCoverageAmountCents: integer("effective_coverage_amount_cents"),
    percentSavings: doublePrecision("percent_savings"),
    /**
     * The last underwriting of the renter's application (decisions §10 step (2)): the source of
     * `offered_products` and of underwriting's decline reasons. Kept across later writes and
     * re-evaluations; replaced only by the next underwriting (docs/underwriting.md, "On the prospect").
     */
    underwriting: jsonb("underwriting").$type<UnderwritingOutcome>(),
    applicationSubmitted: boolean("application_submitted").notNull().default(false),
    latestCoverage: jsonb("latest_coverage").$type<Record<string, unknown>>(),
    /** occurred_at of the last ingested event applied (decisions §8: older events are skipped). */
    lastEventAt: bigint("last_event_at", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("prospects_owner_source_key").on(t.ownerId, t.source, t.sourceProspectId),
    index("prospects_source_idx").on(t.sourceId),
    index("prospects_property_idx").on(t.propertyId),
    index("prospects_unit_idx").on(t.unitId),
    index("prospects_owner_email_idx").on(t.ownerId, sql`lower(${t.email})`),
    // The console searches across owners (docs/decisions.md, "Console: UI kit, prospects, overview, audit").
    index("prospects_email_idx").on(sql`lower(${t.email})`),
    index("prospects_source_prospect_id_idx").on(t.sourceProspectId),
  ],
);

export type Prospect = typeof prospects.$inferSelect;
