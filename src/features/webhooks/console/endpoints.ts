import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { propertyOwners } from "../../owners/owners.table";
import { type Subscriber, updateEndpoint } from "../endpoints";
import { providers } from "../providers.table";
import { setStaticHeaders } from "../static-headers";
import { ENDPOINT_STATUSES, type WebhookEndpoint, webhookEndpoints } from "../webhooks.table";
import { CONSOLE_DELIVERY_MESSAGES as M } from "./messages";

export const consoleEndpoint = z.object({
  id: z.string(),
  name: z.string(),
  destination_url: z.string(),
  events: z.array(z.string()),
  status: z.enum(ENDPOINT_STATUSES),
  /** Why the service suspended it on its own (decisions §16 Auto-suspend); null otherwise. */
  suspension_reason: z.string().nullable(),
  deleted: z.boolean(),
  owner_slug: z.string().nullable(),
  provider_code: z.string().nullable(),
  client_id: z.string().nullable(),
  /** Operator static headers (spec Delivery mechanics 5): every delivery sends them, so staff who read deliveries see them. */
  static_headers: z.record(z.string(), z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});

async function loadEndpoint(db: Tx, id: string, lock = false): Promise<WebhookEndpoint> {
  const query = db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  const [endpoint] = lock ? await query.for("no key update") : await query;
  if (!endpoint) throw errors.notFound(M.endpointNotFound);
  return endpoint;
}

/** An endpoint as the console shows it, deleted ones included (their deliveries stay searchable). */
export async function endpointForConsole(db: Tx, id: string): Promise<z.infer<typeof consoleEndpoint>> {
  const [row] = await db
    .select({ endpoint: webhookEndpoints, ownerSlug: propertyOwners.slug, providerCode: providers.code })
    .from(webhookEndpoints)
    .leftJoin(propertyOwners, eq(propertyOwners.id, webhookEndpoints.ownerId))
    .leftJoin(providers, eq(providers.id, webhookEndpoints.providerId))
    .where(eq(webhookEndpoints.id, id));
  if (!row) throw errors.notFound(M.endpointNotFound);
  const e = row.endpoint;
  return {
    id: e.id,
    name: e.name,
    destination_url: e.destinationUrl,
    events: e.events,
    status: e.status,
    suspension_reason: e.suspensionReason,
    deleted: e.deletedAt !== null,
    owner_slug: row.ownerSlug,
    provider_code: row.providerCode,
    client_id: e.clientId,
    static_headers: e.staticHeaders,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

/** The endpoint's subscriber, as the Partner API's route would name it, so staff go through the same update. */
function subscriberOf(endpoint: WebhookEndpoint): Subscriber {
  if (!endpoint.clientId) throw errors.conflict(M.endpointWithoutClient);
  if (endpoint.ownerId !== null) return { ownerId: endpoint.ownerId, clientId: endpoint.clientId };
  return { providerId: endpoint.providerId as number, clientId: endpoint.clientId };
}

/**
 * An operator's status change of an endpoint (active, suspended, disabled): the Partner API's update
 * (`updateEndpoint`: a return to `active` re-enqueues the deliveries that waited), audited in its
 * transaction.
 */
export async function setEndpointStatusAsStaff(db: Db, actor: AuditActor, id: string, status: WebhookEndpoint["status"]) {
  await db.transaction(async (tx) => {
    const before = await loadEndpoint(tx, id, true);
    const after = await updateEndpoint(tx, subscriberOf(before), id, { status });
    await recordAudit(tx, actor, {
      action: "endpoints.status",
      subject: { type: "webhook_endpoint", id },
      ownerId: before.ownerId,
      before: { status: before.status, ...(before.suspensionReason ? { suspension_reason: before.suspensionReason } : {}) },
      after: { status: after.status },
    });
  });
  return endpointForConsole(db, id);
}

/**
 * Operator static headers (spec Delivery mechanics 5) through the `endpoint headers` CLI's function,
 * audited. The audit keeps header names only: a value may be a partner's credential.
 */
export async function setEndpointHeadersAsStaff(db: Db, actor: AuditActor, id: string, changes: { set?: Record<string, string>; unset?: string[] }) {
  await db.transaction(async (tx) => {
    const before = await loadEndpoint(tx, id, true);
    if (before.deletedAt) throw errors.notFound(M.endpointNotFound);
    const after = await setStaticHeaders(tx, id, changes);
    // Nothing set or removed (the CLI's `endpoint headers` without flags only prints them): nothing to record.
    if (!Object.keys(changes.set ?? {}).length && !(changes.unset ?? []).length) return;
    await recordAudit(tx, actor, {
      action: "endpoints.headers",
      subject: { type: "webhook_endpoint", id },
      ownerId: before.ownerId,
      before: { static_header_names: Object.keys(before.staticHeaders) },
      after: { static_header_names: Object.keys(after.static_headers), set: Object.keys(changes.set ?? {}), unset: changes.unset ?? [] },
    });
  });
  return endpointForConsole(db, id);
}
