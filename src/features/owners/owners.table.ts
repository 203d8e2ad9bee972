import { type AnyPgColumn, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** A property owner (spec Property owner). */
export const propertyOwners = pgTable(
  "property_owners",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull(),
    externalOrgId: text("external_org_id").notNull(),
    name: text("name").notNull(),
    /** An owner with an existing direct relationship: created by the service, never by a partner. */
    managed: boolean("managed").notNull().default(false),
    purchaseFlowEnabled: boolean("purchase_flow_enabled").notNull().default(false),
    maxCoverageAmountCents: integer("max_coverage_amount_cents"),
    embeddedFrameAncestors: jsonb("embedded_frame_ancestors").$type<string[]>().notNull().default([]),
    guarantorCoverageCapable: boolean("guarantor_coverage_capable").notNull().default(false),
    /** Webhook signing secret, sealed (spec Webhook signing secret). */
    signingSecretEncrypted: text("signing_secret_encrypted").notNull(),
    /** The secret being replaced during a rotation window, and when that window ends. */
    previousSigningSecretEncrypted: text("previous_signing_secret_encrypted"),
    previousSigningSecretExpiresAt: timestamp("previous_signing_secret_expires_at", { withTimezone: true }),
    createdByClientId: text("created_by_client_id"),
    /**
     * Set when this owner was merged into another (decisions §12, owners/merge/): its slug and
     * external_org_id keep resolving to that survivor. Always one hop: a later merge of the survivor
     * repoints it.
     */
    mergedIntoId: integer("merged_into_id").references((): AnyPgColumn => propertyOwners.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("property_owners_slug_key").on(t.slug),
    uniqueIndex("property_owners_external_org_id_key").on(t.externalOrgId),
    index("property_owners_created_by_idx").on(t.createdByClientId),
    index("property_owners_merged_into_idx").on(t.mergedIntoId),
  ],
);

/**
 * Buildings of a managed owner a partner may act on, granted by the service
 * (spec Property owner: owners with an existing relationship; decisions §4 `owner grant-building`).
 */
export const ownerBuildingGrants = pgTable(
  "owner_building_grants",
  {
    id: serial("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    pmsType: text("pms_type", { enum: ["pms_one", "pms_two"] }).notNull(),
    pmsPropertyId: text("pms_property_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("owner_building_grants_key").on(t.ownerId, t.clientId, t.pmsType, t.pmsPropertyId),
    index("owner_building_grants_client_idx").on(t.clientId),
  ],
);
