import { boolean, index, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** A partner code prospects are written under (spec Prospect `source`; decisions §4 `source create`). */
export const sources = pgTable(
  "sources",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull(),
    clientId: text("client_id").notNull(),
    flow: text("flow", { enum: ["embedded", "expedited"] })
      .notNull()
      .default("embedded"),
    optionalIngestFields: boolean("optional_ingest_fields").notNull().default(false),
    redirectDomains: text("redirect_domains").array().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sources_code_key").on(t.code), index("sources_client_idx").on(t.clientId)],
);

export type Source = typeof sources.$inferSelect;
