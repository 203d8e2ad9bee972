import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

export const BULK_RETRY_STATUSES = ["queued", "running", "done", "failed"] as const;

/**
 * A bulk retry of the failed deliveries matching a filter (docs/decisions.md, "Console: deliveries"): counted when asked
 * for, then run by the `webhook_delivery__bulk_retry` job (or inline by the CLI), which records its
 * progress here as it re-enqueues them in chunks.
 */
export const bulkRetries = pgTable(
  "bulk_retries",
  {
    id: serial("id").primaryKey(),
    /** The console's filter, as given (owner slug, endpoint, event, time range, record). */
    filter: jsonb("filter").$type<Record<string, unknown>>().notNull(),
    /** The owner the filter names, if any (the audit log and the console filter by it). */
    ownerId: integer("owner_id"),
    /** Only deliveries created up to this moment match: a run never chases deliveries failing after it was asked for. */
    cutoff: timestamp("cutoff", { withTimezone: true }).notNull(),
    matched: integer("matched").notNull(),
    enqueued: integer("enqueued").notNull().default(0),
    status: text("status", { enum: BULK_RETRY_STATUSES }).notNull().default("queued"),
    requestedBy: text("requested_by").notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("bulk_retries_created_idx").on(t.createdAt.desc())],
);

export type BulkRetry = typeof bulkRetries.$inferSelect;
