import { pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** Console staff (decisions §1): operators and account managers. */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["operator", "account_manager"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while the user may not sign in; their open sessions are refused on their next request. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** The last password reset: sessions signed in before it are refused (a reset ends old sessions). */
    passwordChangedAt: timestamp("password_changed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export type StaffUserRow = typeof users.$inferSelect;
