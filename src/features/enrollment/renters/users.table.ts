import { sql } from "drizzle-orm";
import { check, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * A renter's user record (decisions §10 Renters): one per email, created when the renter starts an
 * application. The email is stored trimmed and lower-cased (a check enforces it), so the unique index
 * makes it unique case-insensitively. Not scoped to an owner: the same renter may enroll under several.
 */
export const renterUsers = pgTable(
  "renter_users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("renter_users_email_key").on(t.email), check("renter_users_email_lower_check", sql`${t.email} = lower(btrim(${t.email}))`)],
);

export type RenterUser = typeof renterUsers.$inferSelect;
