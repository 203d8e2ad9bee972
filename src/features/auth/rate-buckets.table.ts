import { doublePrecision, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The shared token buckets of the request limits (decisions §17 "The Partner API is fair too";
 * docs/decisions.md, "Partner developer: rate limits"): one row per counted key (`api:<client>`,
 * `token:<client_id>`, `token-address:<address>`), refilled lazily by the statement that leases from it.
 * UNLOGGED (the migration says so; drizzle-kit has no word for it): no WAL is written for these
 * updates, and a database crash empties the table, which only gives every client a full bucket.
 */
export const rateBuckets = pgTable("rate_buckets", {
  key: text("key").primaryKey(),
  /** Tokens left at `refilled_at` (fractional: refill is continuous). */
  tokens: doublePrecision("tokens").notNull(),
  refilledAt: timestamp("refilled_at", { withTimezone: true }).notNull(),
  /** What the last lease took: read back by that statement's `returning`. */
  granted: doublePrecision("granted").notNull().default(0),
});
