import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The console's audit log (decisions §12): who, when, what, before and after, one row per console
 * mutation (and per CLI command acting as staff), written in the mutation's own transaction so a
 * change and its record commit together. Rows are never updated; only retention deletes them, and
 * only when `RETENTION_AUDIT_DAYS` is set (kept forever by default: docs/decisions.md, Hardening: retention).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The staff user; null for the operator CLI (`actor_label` says who). */
    actorUserId: integer("actor_user_id"),
    /** The user's email at the time, or `cli:<os user>`: kept as text so the record outlives the user. */
    actorLabel: text("actor_label").notNull(),
    actorRole: text("actor_role"),
    /** The permission-style action, e.g. `deliveries.retry`, `buildings.correct_address`. */
    action: text("action").notNull(),
    /** What was acted on, e.g. `delivery` / `whd_123`, `property` / `42`, `owner` / `acme`. */
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    /** The owner concerned, when there is one (filtering the log by owner). */
    ownerId: integer("owner_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    requestId: text("request_id"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at, t.id),
    index("audit_log_subject_idx").on(t.subjectType, t.subjectId),
    index("audit_log_owner_idx").on(t.ownerId, t.id),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;
