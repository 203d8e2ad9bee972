import { customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { policies } from "../policies.table";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * Stored document archives (decisions §11 Documents: objects live in PostgreSQL so every web process
 * serves them). One row per generation: a regeneration inserts a new row under a new key and never
 * touches the old one, so a link once sent keeps its content.
 */
export const policyDocuments = pgTable(
  "policy_documents",
  {
    id: serial("id").primaryKey(),
    policyId: integer("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    /** 192 random bits, base64url: the unguessable part of the public link. */
    key: text("key").notNull(),
    /** The name a download is saved under (`policy-<number>.zip`). */
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    content: bytea("content").notNull(),
    byteSize: integer("byte_size").notNull(),
    /** Hex SHA-256 of `content`; also the HTTP ETag. */
    sha256: text("sha256").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("policy_documents_key_key").on(t.key), index("policy_documents_policy_id_idx").on(t.policyId, t.id)],
);
