import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { propertyOwners } from "../owners/owners.table";

export type Coverage = { type: "multiplier"; value: number };
export type UnitAddress = { line_one?: string | null; line_two?: string | null; city?: string | null; state?: string | null; zip?: string | null };

/** A claims-payout bank account (spec Bank account). The account number is sealed at rest. */
export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: serial("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    externalSystemId: text("external_system_id").notNull(),
    displayName: text("display_name").notNull(),
    routingNumber: text("routing_number").notNull(),
    accountNumberEncrypted: text("account_number_encrypted").notNull(),
    accountNumberLast4: text("account_number_last4").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("bank_accounts_owner_external_key").on(t.ownerId, t.externalSystemId),
    // spec Bank account default: exactly one default per owner.
    uniqueIndex("bank_accounts_one_default_per_owner").on(t.ownerId).where(sql`${t.isDefault}`),
  ],
);

/** A building (spec Property). `externalSystemId` is null for buildings the service created itself. */
export const properties = pgTable(
  "properties",
  {
    id: serial("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    externalSystemId: text("external_system_id"),
    buildingName: text("building_name").notNull(),
    /** Normalized building name and street line, the match key of spec Property rules step 3. */
    nameKey: text("name_key").notNull(),
    streetKey: text("street_key").notNull(),
    addressLineOne: text("address_line_one").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zip: text("zip").notNull(),
    type: text("type", { enum: ["single_family", "garden_community", "multifamily", "single_address_garden_community"] })
      .notNull()
      .default("multifamily"),
    policyHolderName: text("policy_holder_name"),
    pmsType: text("pms_type", { enum: ["pms_one", "pms_two"] }),
    pmsPropertyId: text("pms_property_id"),
    defaultCoverage: jsonb("default_coverage").$type<Coverage>(),
    /** Null: the owner's default account (spec: "Explicit null reverts to the default"). */
    bankAccountId: integer("bank_account_id").references(() => bankAccounts.id),
    active: boolean("active").notNull().default(true),
    guaranteeEnabled: boolean("guarantee_enabled").notNull().default(false),
    guaranteeCoverage: jsonb("guarantee_coverage").$type<Coverage>(),
    /**
     * Set when staff correct the address or a policy is issued against the building: derivation
     * stops and later disagreements are logged (spec Property rules, Address derivation).
     */
    addressLockedAt: timestamp("address_locked_at", { withTimezone: true }),
    addressLockedReason: text("address_locked_reason", { enum: ["staff_correction", "policy_issued"] }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("properties_owner_external_key").on(t.ownerId, t.externalSystemId).where(sql`${t.externalSystemId} is not null`),
    index("properties_owner_pms_idx").on(t.ownerId, t.pmsType, t.pmsPropertyId),
    index("properties_owner_match_idx").on(t.ownerId, t.nameKey, t.streetKey, t.zip),
    index("properties_bank_account_idx").on(t.bankAccountId),
  ],
);

/** A unit (spec Unit). Its address is stored exactly as sent. */
export const units = pgTable(
  "units",
  {
    id: serial("id").primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    externalSystemId: text("external_system_id"),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull(),
    address: jsonb("address").$type<UnitAddress>(),
    pmsUnitId: text("pms_unit_id"),
    defaultCoverage: jsonb("default_coverage").$type<Coverage>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("units_property_external_key").on(t.propertyId, t.externalSystemId).where(sql`${t.externalSystemId} is not null`),
    uniqueIndex("units_property_name_key").on(t.propertyId, t.nameKey),
    index("units_property_pms_idx").on(t.propertyId, t.pmsUnitId),
  ],
);

/** A derived or sent address that was not applied because the building's address is locked. */
export const addressDisagreements = pgTable(
  "address_disagreements",
  {
    id: serial("id").primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    source: text("source", { enum: ["derivation", "partner_update"] }).notNull(),
    storedLineOne: text("stored_line_one").notNull(),
    proposedLineOne: text("proposed_line_one").notNull(),
    /** The rest of the address received (the building's own city, state and zip for a derivation). */
    proposedCity: text("proposed_city").notNull(),
    proposedState: text("proposed_state").notNull(),
    proposedZip: text("proposed_zip").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("address_disagreements_property_idx").on(t.propertyId)],
);
