import { pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** HTTPS origins allowed to frame the enrollment flow (spec Domain allowlist), set by operators. */
export const frameOrigins = pgTable(
  "frame_origins",
  {
    id: serial("id").primaryKey(),
    origin: text("origin").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("frame_origins_origin_key").on(t.origin)],
);
