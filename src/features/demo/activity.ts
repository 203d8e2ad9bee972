import { and, desc, eq, like } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { findOwnerBySlug } from "../owners/service";
import { prospects } from "../prospects/prospects.table";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../webhooks/webhooks.table";
import { DEMO_PROSPECT_PREFIX } from "./scenarios";

/** How many of the newest deliveries the page shows. */
export const DEMO_DELIVERY_LIMIT = 50;

export type DemoDelivery = {
  id: string;
  event: string;
  status: string;
  attempt_number: number;
  last_attempt_failure_reason: string | null;
  endpoint_name: string;
  destination_url: string;
  created_at: string;
  /** The exact body every attempt sends (spec Events, Body). */
  payload: string;
};

/**
 * The newest deliveries to the demo owner's own endpoints (any client's, the seeded demo endpoint
 * included), newest first. Scoped to that one owner: provider subscriptions and other owners never
 * appear, whoever opens the page (docs/decisions.md, Demo page).
 */
export async function listDemoDeliveries(db: Db, ownerSlug: string, limit = DEMO_DELIVERY_LIMIT): Promise<DemoDelivery[]> {
  const owner = await findOwnerBySlug(db, ownerSlug);
  if (!owner) return [];
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      event: webhookEvents.event,
      status: webhookDeliveries.status,
      attemptNumber: webhookDeliveries.attemptNumber,
      failure: webhookDeliveries.lastAttemptFailureReason,
      endpointName: webhookEndpoints.name,
      destinationUrl: webhookEndpoints.destinationUrl,
      createdAt: webhookDeliveries.createdAt,
      body: webhookEvents.body,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookEndpoints.ownerId, owner.id), eq(webhookEvents.ownerId, owner.id)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    event: row.event,
    status: row.status,
    attempt_number: row.attemptNumber,
    last_attempt_failure_reason: row.failure,
    endpoint_name: row.endpointName,
    destination_url: row.destinationUrl,
    created_at: row.createdAt.toISOString(),
    payload: row.body,
  }));
}

export type DemoProspectSummary = { source_prospect_id: string; email: string | null; status: string; created_at: string };

/** The demo page's earlier renters (its own prefix, the demo source), newest first, to pick one again. */
export async function listDemoProspects(db: Db, ownerSlug: string, source: string, limit = 20): Promise<DemoProspectSummary[]> {
  const owner = await findOwnerBySlug(db, ownerSlug);
  if (!owner) return [];
  const rows = await db
    .select({ id: prospects.sourceProspectId, email: prospects.email, status: prospects.status, createdAt: prospects.createdAt })
    .from(prospects)
    .where(and(eq(prospects.ownerId, owner.id), eq(prospects.source, source), like(prospects.sourceProspectId, `${DEMO_PROSPECT_PREFIX}%`)))
    .orderBy(desc(prospects.createdAt), desc(prospects.id))
    .limit(limit);
  return rows.map((row) => ({ source_prospect_id: row.id, email: row.email, status: row.status, created_at: row.createdAt.toISOString() }));
}
