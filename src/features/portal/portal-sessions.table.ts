import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { apiClients } from "../auth/clients.table";
import { propertyOwners } from "../owners/owners.table";

/**
 * A partner portal session (decisions §16 Portal; docs/decisions.md, "Second security review"): the
 * signed link names this row, its first visit (`exchanged_at`) trades it for a cookie whose hash is
 * kept here, and every page and action reads the row again: the client's secret version at issue, its
 * `webhooks:manage` scope, its grant, and the row's own revocation (sign-out) and expiry.
 */
export const portalSessions = pgTable(
  "portal_sessions",
  {
    /** `ps_…`; the signed link's nonce, named in the audit rows of what the session did. */
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => apiClients.id, { onDelete: "cascade" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    /** The client's `secret_version` when the session was opened: a rotation ends the session. */
    secretVersion: integer("secret_version").notNull(),
    /** The origins the session's own client asked to frame the portal (none: unframeable). */
    frameAncestors: text("frame_ancestors").array().notNull().default([]),
    /** SHA-256 of the `/portal` cookie, set when the link is exchanged; the link opens once. */
    cookieHash: text("cookie_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    exchangedAt: timestamp("exchanged_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("portal_sessions_cookie_hash_key").on(t.cookieHash),
    index("portal_sessions_client_idx").on(t.clientId),
    index("portal_sessions_owner_idx").on(t.ownerId),
    index("portal_sessions_expires_idx").on(t.expiresAt),
  ],
);

export type PortalSessionRow = typeof portalSessions.$inferSelect;
