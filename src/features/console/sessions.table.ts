import { bigint, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.table";

/**
 * Console sessions (decisions §15): the session cookie names one of these rows (`sid`), so signing
 * out revokes it on the server and a session ends 12 h after it started, whatever its activity.
 */
export const consoleSessions = pgTable(
  "console_sessions",
  {
    /** Random, unguessable: the `sid` claim of the session's JWT. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set by sign-out: the cookie (and any copy of it) is refused from then on. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("console_sessions_user_idx").on(t.userId)],
);

/**
 * Failed console sign-ins of the last window (decisions §15: 5 per email, 20 per client address in
 * 15 minutes), kept in PostgreSQL so every web process counts the same failures. An attempt is
 * recorded before its password is checked and removed when the password was right. The renter
 * account's sign-in link requests are throttled by the same rule and counted here under their own
 * `scope` (decisions §19: "throttled as §15's console sign-in"; each request counts).
 */
export const consoleSignInFailures = pgTable(
  "console_sign_in_failures",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** As typed, trimmed and lower-cased (an unknown email counts like a known one). */
    email: text("email").notNull(),
    /** The client address (`clientAddressOf`): an IPv4 address, an IPv6 /64 prefix, or `unknown`. */
    clientAddress: text("client_address").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Whose sign-in: the console's (password) or the renter account's (emailed link). */
    scope: text("scope", { enum: ["console", "account"] })
      .notNull()
      .default("console"),
  },
  (t) => [
    index("console_sign_in_failures_email_idx").on(t.email, t.at),
    index("console_sign_in_failures_address_idx").on(t.clientAddress, t.at),
    index("console_sign_in_failures_at_idx").on(t.at),
  ],
);
