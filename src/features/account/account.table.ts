import { bigint, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The renter's account (decisions §19; docs/decisions.md, "Renter account: sign-in by email link").
 * Neither table keeps a token itself, only its SHA-256: a copy of the database opens no account.
 * Emails are stored trimmed and lower-cased, as renter users are.
 */

/** A sign-in link sent by email: valid 15 minutes, used once (`usedAt` set by the visit that used it). */
export const accountSignInLinks = pgTable(
  "account_sign_in_links",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("account_sign_in_links_token_key").on(t.tokenHash), index("account_sign_in_links_expires_idx").on(t.expiresAt)],
);

/** A signed-in renter: the HttpOnly cookie names one row (by hash); sign-out revokes it, 12 h ends it. */
export const accountSessions = pgTable(
  "account_sessions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("account_sessions_token_key").on(t.tokenHash), index("account_sessions_expires_idx").on(t.expiresAt)],
);

export type AccountSession = typeof accountSessions.$inferSelect;
