import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { apiClients } from "./clients.table";

/**
 * An `Idempotency-Key` a Partner API client sent on a POST (decisions §16; docs/decisions.md,
 * "Partner developer: idempotency keys"): keyed by client and key, so two web processes share it and
 * the primary key decides a race. `in_flight` while the first request runs (`locked_until` bounds a
 * claim whose process died), then `done` with the answer kept; an answer that is not kept releases
 * the row. Pruned 24 h after `created_at` (`idempotency_key__prune`).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => apiClients.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of the method, path with query and raw body. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["in_flight", "done"] }).notNull(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.key] }), index("idempotency_keys_created_at_idx").on(t.createdAt)],
);
