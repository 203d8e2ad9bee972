import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { propertyOwners } from "../owners/owners.table";
import { properties } from "../roster/roster.table";

/**
 * A provider subscription (spec Delivery mechanics 6): one subscriber receiving events of many owners
 * behind a platform "or only configured properties". Coverage: the listed owners (every event of
 * theirs) and the listed buildings (events whose record belongs to one of them); when neither is
 * listed, every owner granted to the provider's client.
 */
export const providers = pgTable(
  "providers",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull(),
    clientId: text("client_id").notNull(),
    signingSecretEncrypted: text("signing_secret_encrypted").notNull(),
    previousSigningSecretEncrypted: text("previous_signing_secret_encrypted"),
    previousSigningSecretExpiresAt: timestamp("previous_signing_secret_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("providers_code_key").on(t.code), index("providers_client_idx").on(t.clientId)],
);

export const providerOwners = pgTable(
  "provider_owners",
  {
    providerId: integer("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.ownerId] }), index("provider_owners_owner_idx").on(t.ownerId)],
);

/** Buildings a provider subscription covers one by one (spec Delivery mechanics 6: "only configured properties"). */
export const providerBuildings = pgTable(
  "provider_buildings",
  {
    providerId: integer("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.propertyId] }), index("provider_buildings_property_idx").on(t.propertyId)],
);
