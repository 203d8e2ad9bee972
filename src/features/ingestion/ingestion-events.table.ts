import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { prospects } from "../prospects/prospects.table";

/**
 * An event received on the ingestion gateway (decisions §8): stored first, as received except for
 * the never-echoed fields (sealed apart, `sealedFields`), then applied by a job. Rejected events
 * keep their reasons for operators.
 */
export const ingestionEvents = pgTable(
  "ingestion_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    clientId: text("client_id").notNull(),
    body: jsonb("body").$type<unknown>().notNull(),
    /**
     * The never-echoed values taken out of `body` (spec Prospect: `social_security_number`,
     * `education_level`, `citizenship`, `terms_accepted_at`), sealed with `encryptSecret`; cleared
     * once the event is processed (docs/decisions.md, Hardening: ingestion).
     */
    sealedFields: text("sealed_fields"),
    status: text("status", { enum: ["pending", "applied", "skipped", "rejected"] })
      .notNull()
      .default("pending"),
    reasons: jsonb("reasons").$type<Record<string, string[]>>(),
    prospectId: integer("prospect_id").references(() => prospects.id, { onDelete: "set null" }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [index("ingestion_events_status_idx").on(t.status, t.receivedAt), index("ingestion_events_prospect_idx").on(t.prospectId)],
);

export type IngestionEvent = typeof ingestionEvents.$inferSelect;
