import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { propertyOwners } from "../owners/owners.table";
import { providers } from "./providers.table";

export const ENDPOINT_STATUSES = ["active", "suspended", "disabled"] as const;
export const DELIVERY_STATUSES = ["pending", "delivering", "delivered", "retrying", "rate_limited", "failed"] as const;

/** A partner-registered HTTPS endpoint (spec Webhook endpoint), of an owner or of a provider subscription. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    ownerId: integer("owner_id").references(() => propertyOwners.id, { onDelete: "cascade" }),
    providerId: integer("provider_id").references(() => providers.id, { onDelete: "cascade" }),
    /**
     * The API client that registered it. Partners sharing an owner reach only their own endpoints,
     * and events about a client's records go only to that client's endpoints (docs/decisions.md,
     * Webhooks). Null only for endpoints of before this column that no client could be told for.
     */
    clientId: text("client_id"),
    name: text("name").notNull(),
    destinationUrl: text("destination_url").notNull(),
    events: text("events").array().notNull(),
    status: text("status", { enum: ENDPOINT_STATUSES }).notNull().default("active"),
    /**
     * Why the service suspended it on its own (decisions §16 Auto-suspend); null when it was not, and
     * cleared by any status change through the API or the console.
     */
    suspensionReason: text("suspension_reason"),
    /** Operator-configured static headers (spec Delivery mechanics 5); never set through the API. */
    staticHeaders: jsonb("static_headers").$type<Record<string, string>>().notNull().default({}),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * When a delivery to it was first answered with a 2xx; null until then. Until an endpoint has shown
     * it answers, a worker process holds one attempt of it at a time (docs/decisions.md, "Delivery
     * engine: a dispatcher per worker", slow start).
     */
    firstDeliveredAt: timestamp("first_delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_endpoints_owner_idx").on(t.ownerId),
    index("webhook_endpoints_provider_idx").on(t.providerId),
    check("webhook_endpoints_one_subscriber", sql`(${t.ownerId} is null) <> (${t.providerId} is null)`),
  ],
);

/**
 * The current one-minute window of an endpoint's rate limit (spec: 1000 deliveries per minute). Its
 * own table, so counting deliveries in never locks the endpoint row that emitting transactions'
 * foreign-key checks lock too.
 */
export const webhookRateWindows = pgTable("webhook_rate_windows", {
  endpointId: text("endpoint_id")
    .primaryKey()
    .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});

/** One event as it happened, with the exact body every delivery of it sends (spec Events, Body). */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    body: text("body").notNull(),
    /**
     * The records the event is about, read from its data at emission (`record-refs.ts`), so the
     * console finds deliveries by them (docs/decisions.md, "Console: deliveries"); null when the payload has none.
     */
    sourceProspectId: text("source_prospect_id"),
    policyNumber: text("policy_number"),
    moveOutId: integer("move_out_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_events_owner_idx").on(t.ownerId),
    index("webhook_events_source_prospect_idx").on(t.sourceProspectId).where(sql`${t.sourceProspectId} is not null`),
    index("webhook_events_policy_number_idx").on(t.policyNumber).where(sql`${t.policyNumber} is not null`),
    index("webhook_events_move_out_idx").on(t.moveOutId).where(sql`${t.moveOutId} is not null`),
    // Retention's sweep of events older than its window (docs/decisions.md, Hardening: retention).
    index("webhook_events_created_idx").on(t.createdAt),
  ],
);

/** One event to one endpoint (spec Webhook delivery record). Its id is `X-Webhook-Delivery`. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: bigint("event_id", { mode: "number" })
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The event's owner and name, copied at emission so the console's search filters on one table's indexes. */
    ownerId: integer("owner_id")
      .notNull()
      .references(() => propertyOwners.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attemptNumber: integer("attempt_number").notNull().default(0),
    lastAttemptedAt: timestamp("last_attempted_at", { withTimezone: true }),
    nextRetryAt: timestamp("next_retry_at", { withTimezone: true }),
    durationMs: integer("duration_ms"),
    lastAttemptFailureReason: text("last_attempt_failure_reason"),
    /**
     * A test event sent through the test route (docs/decisions.md, "Partner developer: test events"):
     * every attempt of it carries `X-Webhook-Test: true`, and the delivery record shows `test: true`.
     */
    test: boolean("test").notNull().default(false),
    /** While `delivering`: until when the claiming worker owns it; a lapsed lease is recovered. */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Ascending on purpose: `ORDER BY created_at DESC, id DESC` is DESC NULLS FIRST, which a backward
    // scan of an ascending index gives; a `DESC NULLS LAST` index cannot (PostgreSQL then sorts every match).
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    // The console's search (newest first, keyset on created_at and id) by each filter.
    index("webhook_deliveries_created_idx").on(t.createdAt, t.id),
    index("webhook_deliveries_owner_idx").on(t.ownerId, t.createdAt, t.id),
    index("webhook_deliveries_event_name_idx").on(t.event, t.createdAt, t.id),
    index("webhook_deliveries_status_idx").on(t.status, t.createdAt, t.id),
    // A bulk retry's failed deliveries of an owner, and the console's "owner + failed" view.
    index("webhook_deliveries_failed_idx").on(t.ownerId, t.createdAt, t.id).where(sql`${t.status} = 'failed'`),
    index("webhook_deliveries_event_idx").on(t.eventId),
    index("webhook_deliveries_lease_idx").on(t.leaseExpiresAt).where(sql`${t.status} = 'delivering'`),
    // An endpoint's open deliveries, for its return to `active` and its deletion.
    // Retention: final deliveries by their last change (docs/decisions.md, Hardening: retention).
    index("webhook_deliveries_final_idx").on(t.updatedAt).where(sql`${t.status} in ('delivered', 'failed')`),
    // The auto-suspend's two probes per active endpoint: a success, and an attempt, since its window
    // began (docs/decisions.md, "Partner developer: endpoint health").
    index("webhook_deliveries_endpoint_attempted_idx").on(t.endpointId, t.status, t.lastAttemptedAt),
    index("webhook_deliveries_open_idx").on(t.endpointId).where(sql`${t.status} in ('pending', 'retrying', 'rate_limited', 'delivering')`),
    // The dispatcher's fair claim (docs/decisions.md, "Delivery engine: a dispatcher per worker"): an
    // endpoint's waiting deliveries by due time, so taking its oldest due ones reads just those rows
    // however long its backlog, and the endpoints with waiting deliveries are found by a skip scan.
    index("webhook_deliveries_due_idx")
      .on(t.endpointId, sql`coalesce(${t.nextRetryAt}, ${t.createdAt})`, t.id)
      .where(sql`${t.status} in ('pending', 'retrying', 'rate_limited')`),
    // Scheduled tries of an endpoint that is not active, parked by the claim when they fall due.
    index("webhook_deliveries_scheduled_idx")
      .on(t.endpointId, t.nextRetryAt)
      .where(sql`${t.status} in ('pending', 'retrying', 'rate_limited') and ${t.nextRetryAt} is not null`),
  ],
);

/** One HTTP try of a delivery. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    responseStatus: integer("response_status"),
    failureReason: text("failure_reason"),
    responseBodyExcerpt: text("response_body_excerpt"),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>().notNull(),
  },
  (t) => [
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.number),
    // The console overview reads the last 24 hours of attempts (docs/decisions.md, "Console: UI kit, prospects, overview, audit").
    index("webhook_attempts_started_idx").on(t.startedAt),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
