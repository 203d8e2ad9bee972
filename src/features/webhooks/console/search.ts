import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { propertyOwners } from "../../owners/owners.table";
import { findOwnerBySlug } from "../../owners/service";
import { EVENT_NAMES } from "../catalog";
import { DELIVERY_STATUSES, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../webhooks.table";
import { CONSOLE_DELIVERY_MESSAGES as M } from "./messages";

/**
 * The console's delivery search (docs/decisions.md, "Console: deliveries"; decisions §12): across owners, by owner, endpoint,
 * event, status, time range and the record a delivery is about. Newest first, keyset paging on
 * (created_at, id); each filter has its index (`webhook_deliveries_*_idx`, `webhook_events_*_idx`).
 */
export const deliveryFilter = z.object({
  owner: z.string().trim().min(1).max(200).optional(),
  endpoint_id: z.string().trim().min(1).max(100).optional(),
  event: z.enum(EVENT_NAMES as [string, ...string[]]).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  /** Created at or after (ISO 8601). */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Created before (ISO 8601). */
  to: z.iso.datetime({ offset: true }).optional(),
  source_prospect_id: z.string().trim().min(1).max(200).optional(),
  policy_number: z.string().trim().min(1).max(200).optional(),
  move_out_id: z.number().int().positive().max(2_147_483_647).optional(),
});
export type DeliveryFilter = z.infer<typeof deliveryFilter>;

export const deliverySearchInput = deliveryFilter.extend({
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const consoleDeliveryRow = z.object({
  id: z.string(),
  created_at: z.string(),
  owner_slug: z.string(),
  owner_name: z.string(),
  endpoint_id: z.string(),
  endpoint_name: z.string(),
  endpoint_status: z.enum(["active", "suspended", "disabled"]),
  endpoint_deleted: z.boolean(),
  destination_url: z.string(),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempt_number: z.number().int(),
  last_attempted_at: z.string().nullable(),
  next_retry_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  last_attempt_failure_reason: z.string().nullable(),
  source_prospect_id: z.string().nullable(),
  policy_number: z.string().nullable(),
  move_out_id: z.number().int().nullable(),
});
export type ConsoleDeliveryRow = z.infer<typeof consoleDeliveryRow>;

export const consoleDeliveryPage = z.object({ deliveries: z.array(consoleDeliveryRow), next_cursor: z.string().nullable() });

const consoleAttempt = z.object({
  number: z.number().int(),
  started_at: z.string(),
  duration_ms: z.number().int(),
  response_status: z.number().int().nullable(),
  failure_reason: z.string().nullable(),
  response_excerpt: z.string().nullable(),
  request_headers: z.record(z.string(), z.string()),
});

export const consoleDeliveryDetail = consoleDeliveryRow.extend({
  /** The exact body sent, byte for byte (spec Webhook delivery record). */
  payload: z.string(),
  /** The headers of the last request as sent (static headers, then the service's; never the signing secret). */
  request_headers: z.record(z.string(), z.string()).nullable(),
  attempts: z.array(consoleAttempt),
});

/** The SQL conditions of a filter on `webhook_deliveries` (the owner already resolved to its id). */
export function filterConditions(filter: DeliveryFilter, ownerId: number | undefined): SQL[] {
  const d = webhookDeliveries;
  const conditions: SQL[] = [];
  if (ownerId !== undefined) conditions.push(eq(d.ownerId, ownerId));
  if (filter.endpoint_id) conditions.push(eq(d.endpointId, filter.endpoint_id));
  if (filter.event) conditions.push(eq(d.event, filter.event));
  if (filter.status) conditions.push(eq(d.status, filter.status));
  // Compared as PostgreSQL reads the instant: a JavaScript Date would drop its microseconds.
  if (filter.from) conditions.push(sql`${d.createdAt} >= ${filter.from}::timestamptz`);
  if (filter.to) conditions.push(sql`${d.createdAt} < ${filter.to}::timestamptz`);
  // The record a delivery is about is its event's: a few events, found by their partial indexes.
  const about = (condition: SQL | undefined) => inArray(d.eventId, sql`(select ${webhookEvents.id} from ${webhookEvents} where ${condition})`);
  if (filter.source_prospect_id) conditions.push(about(eq(webhookEvents.sourceProspectId, filter.source_prospect_id)));
  if (filter.policy_number) conditions.push(about(eq(webhookEvents.policyNumber, filter.policy_number)));
  if (filter.move_out_id !== undefined) conditions.push(about(eq(webhookEvents.moveOutId, filter.move_out_id)));
  return conditions;
}

/** The owner a filter names by slug; an unknown slug is a 404, not an empty page that looks like "no deliveries". */
export async function ownerIdOf(db: Tx, filter: DeliveryFilter): Promise<number | undefined> {
  if (!filter.owner) return undefined;
  const owner = await findOwnerBySlug(db, filter.owner);
  if (!owner) throw errors.notFound(M.ownerNotFound(filter.owner));
  return owner.id;
}

/** Cursor: the last row's created_at as PostgreSQL prints it (microseconds kept) and its id. */
const cursorOf = (createdAt: string, id: string) => Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");

function parseCursor(cursor: string): [string, string] {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof at === "string" && typeof id === "string" && !Number.isNaN(Date.parse(at))) return [at, id];
  } catch {
    // falls through to the error below
  }
  throw errors.invalid(M.badCursor, "cursor");
}

const selection = {
  delivery: webhookDeliveries,
  createdAtText: sql<string>`${webhookDeliveries.createdAt}::text`,
  ownerSlug: propertyOwners.slug,
  ownerName: propertyOwners.name,
  endpointName: webhookEndpoints.name,
  endpointStatus: webhookEndpoints.status,
  endpointDeletedAt: webhookEndpoints.deletedAt,
  destinationUrl: webhookEndpoints.destinationUrl,
  sourceProspectId: webhookEvents.sourceProspectId,
  policyNumber: webhookEvents.policyNumber,
  moveOutId: webhookEvents.moveOutId,
};

type Selected = { [K in keyof typeof selection]: unknown } & {
  delivery: typeof webhookDeliveries.$inferSelect;
  createdAtText: string;
  ownerSlug: string;
  ownerName: string;
  endpointName: string;
  endpointStatus: "active" | "suspended" | "disabled";
  endpointDeletedAt: Date | null;
  destinationUrl: string;
  sourceProspectId: string | null;
  policyNumber: string | null;
  moveOutId: number | null;
};

function rowOf(row: Selected): ConsoleDeliveryRow {
  const d = row.delivery;
  return {
    id: d.id,
    created_at: d.createdAt.toISOString(),
    owner_slug: row.ownerSlug,
    owner_name: row.ownerName,
    endpoint_id: d.endpointId,
    endpoint_name: row.endpointName,
    endpoint_status: row.endpointStatus,
    endpoint_deleted: row.endpointDeletedAt !== null,
    destination_url: row.destinationUrl,
    event: d.event,
    status: d.status,
    attempt_number: d.attemptNumber,
    last_attempted_at: d.lastAttemptedAt?.toISOString() ?? null,
    next_retry_at: d.nextRetryAt?.toISOString() ?? null,
    duration_ms: d.durationMs,
    last_attempt_failure_reason: d.lastAttemptFailureReason,
    source_prospect_id: row.sourceProspectId,
    policy_number: row.policyNumber,
    move_out_id: row.moveOutId,
  };
}

function joined(db: Tx, withBody = false) {
  return db
    .select(withBody ? { ...selection, body: webhookEvents.body } : selection)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(propertyOwners, eq(propertyOwners.id, webhookDeliveries.ownerId));
}

/** The page's query, unexecuted (the benchmark prints its plan). */
export async function searchDeliveriesQuery(db: Tx, input: z.input<typeof deliverySearchInput>) {
  const { cursor, limit, ...filter } = deliverySearchInput.parse(input);
  const conditions = filterConditions(filter, await ownerIdOf(db, filter));
  if (cursor) {
    const [at, id] = parseCursor(cursor);
    conditions.push(sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${at}::timestamptz, ${id})`);
  }
  const query = joined(db)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1);
  return { query, limit };
}

/** One page of deliveries matching the filter, newest first. */
export async function searchDeliveries(db: Tx, input: z.input<typeof deliverySearchInput>): Promise<z.infer<typeof consoleDeliveryPage>> {
  const { query, limit } = await searchDeliveriesQuery(db, input);
  const rows = (await query) as Selected[];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { deliveries: page.map(rowOf), next_cursor: rows.length > limit && last ? cursorOf(last.createdAtText, last.delivery.id) : null };
}

/** One delivery by its permanent id, with its exact payload, the headers as sent and every attempt. */
export async function deliveryForConsole(db: Tx, id: string): Promise<z.infer<typeof consoleDeliveryDetail>> {
  const [row] = (await joined(db, true).where(eq(webhookDeliveries.id, id))) as unknown as (Selected & { body: string })[];
  if (!row) throw errors.notFound(M.deliveryNotFound);
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(webhookAttempts.number, webhookAttempts.id);
  return {
    ...rowOf(row),
    payload: row.body,
    request_headers: attempts.at(-1)?.requestHeaders ?? null,
    attempts: attempts.map((attempt) => ({
      number: attempt.number,
      started_at: attempt.startedAt.toISOString(),
      duration_ms: attempt.durationMs,
      response_status: attempt.responseStatus,
      failure_reason: attempt.failureReason,
      response_excerpt: attempt.responseBodyExcerpt,
      request_headers: attempt.requestHeaders,
    })),
  };
}
