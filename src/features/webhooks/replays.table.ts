import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { webhookDeliveries } from "./webhooks.table";

/**
 * The last time the Partner API replayed a `delivered` delivery (decisions §15: at most once a
 * minute per delivery). In PostgreSQL so every web process sees it; gone with its delivery.
 */
export const webhookDeliveryReplays = pgTable("webhook_delivery_replays", {
  deliveryId: text("delivery_id")
    .primaryKey()
    .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
  replayedAt: timestamp("replayed_at", { withTimezone: true }).notNull(),
});
