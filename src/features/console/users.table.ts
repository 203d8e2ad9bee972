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
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);
