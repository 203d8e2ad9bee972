import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { propertyOwners } from "../owners/owners.table";

/** An API client of one gateway (spec Authentication; decisions §4-§6). */
export const apiClients = pgTable(
  "api_clients",
  {
    id: text("id").primaryKey(), // the public client_id
    name: text("name").notNull(),
    gateway: text("gateway", { enum: ["partner", "ingestion"] }).notNull(),
    scopes: text("scopes").array().notNull(),
    /** SHA-256 of the generated secret, checked at token exchange. */
    secretHash: text("secret_hash").notNull(),
    /** The secret sealed with AES-GCM: request signatures are HMACs keyed with it (decisions §6). */
    secretEncrypted: text("secret_encrypted").notNull(),
    /**
     * Bumped by each secret rotation; access tokens carry the version they were issued under and a
     * token of an older one is refused (docs/decisions.md, Console: access management).
     */
    secretVersion: integer("secret_version").notNull().default(1),
    secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true }),
    requireSignature: boolean("require_signature").notNull().default(false),
    providerCode: text("provider_code"),
    /**
     * An ingestion client's partner (decisions §15 Ingestion): its events may name only that partner
     * API client's sources, or sources created for the ingestion client itself. Null on partner
     * clients, and on ingestion clients created before the rule (they keep only their own sources).
     */
    partnerClientId: text("partner_client_id").references((): AnyPgColumn => apiClients.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
  },
  (t) => [index("api_clients_partner_client_idx").on(t.partnerClientId)],
);

/** Which owners a client may act on (spec Owner slugs and access). */
export const clientOwnerGrants = pgTable(
  "client_owner_grants",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => apiClients.id, { onDelete: "cascade" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.ownerId] }), index("client_owner_grants_owner_idx").on(t.ownerId)],
);
