import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Stripe's webhook events received (decisions §18 Stripe's webhooks): each event id is handled once,
 * whatever Stripe retries. A row is written with the job that handles it, in one transaction, when
 * the signed request arrives; `handled_at` is set when its handler finished.
 */
export const stripeEvents = pgTable(
  "stripe_events",
  {
    /** Stripe's event id (`evt_…`). */
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    /** The event as Stripe signed it: its `data.object` is read by the handler, then the object is retrieved again. */
    payload: jsonb("payload").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
  },
  (t) => [index("stripe_events_received_idx").on(t.receivedAt)],
);

export type StripeEventRow = typeof stripeEvents.$inferSelect;
