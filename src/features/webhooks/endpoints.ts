import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors, type FieldErrors } from "../../server/errors";
import { randomToken } from "../../server/secrets";
import { isEventName } from "./catalog";
import { checkDestination } from "./destination-guard";
import { endEndpointDeliveries, resumeEndpointDeliveries } from "./endpoint-deliveries";
import { WEBHOOK_MESSAGES } from "./messages";
import { providers } from "./providers.table";
import { type WebhookEndpoint, webhookEndpoints } from "./webhooks.table";

/**
 * Whose endpoints a route reaches: an owner's, or a provider subscription's (spec: never both), and
 * always only those the calling client registered: partners sharing an owner never see each
 * other's endpoints (docs/decisions.md, Webhooks).
 */
export type Subscriber = ({ ownerId: number } | { providerId: number }) & { clientId: string };

/**
 * An owner route's subscriber. Its `ownerId` is read when used, not when the route starts: a write
 * that waited at the owner's merge gate acts on the survivor, which the gate writes into `owner` in
 * place (owners/merge/gate.ts), so the endpoint it names is found where the merge moved it.
 */
export function ownerSubscriber(owner: { id: number }, clientId: string): Subscriber {
  return {
    get ownerId() {
      return owner.id;
    },
    clientId,
  };
}

export type EndpointFields = { name?: string; destination_url?: string; events?: string[]; status?: WebhookEndpoint["status"] };

export function endpointView(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    name: endpoint.name,
    destination_url: endpoint.destinationUrl,
    events: endpoint.events,
    status: endpoint.status,
    suspension_reason: endpoint.suspensionReason,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** Field checks beyond shape: HTTPS, no private destination, catalog event names only (no wildcard). */
async function validate(fields: EndpointFields, creating: boolean): Promise<void> {
  const problems: FieldErrors = {};
  if (creating) {
    for (const key of ["name", "destination_url", "events"] as const) if (fields[key] === undefined) problems[key] = ["is required"];
  }
  if (fields.destination_url !== undefined) {
    const problem = await checkDestination(fields.destination_url);
    if (problem) problems.destination_url = [problem === "not_https" ? WEBHOOK_MESSAGES.httpsOnly : WEBHOOK_MESSAGES.privateDestination];
  }
  if (fields.events !== undefined) {
    const unknown = fields.events.filter((name) => !isEventName(name));
    if (fields.events.length === 0) problems.events = [WEBHOOK_MESSAGES.noEvents];
    else if (unknown.length) problems.events = unknown.map(WEBHOOK_MESSAGES.unknownEvent);
  }
  if (Object.keys(problems).length) throw errors.invalidFields(WEBHOOK_MESSAGES.invalid, problems);
}

const subscriberCondition = (subscriber: Subscriber) =>
  and(
    "ownerId" in subscriber ? eq(webhookEndpoints.ownerId, subscriber.ownerId) : eq(webhookEndpoints.providerId, subscriber.providerId),
    eq(webhookEndpoints.clientId, subscriber.clientId),
  );

/** decisions §15: the endpoints one subscriber may hold (deleted ones do not count). */
export const MAX_ENDPOINTS_PER_SUBSCRIBER = 50;

const ENDPOINT_CAP_LOCK_SPACE = 7_420_300;

/**
 * spec Delivery mechanics 6: the first endpoint of an owner-scoped route creates the owner's
 * subscriber. decisions §15: at most 50 endpoints per owner (those one client registered under it:
 * docs/decisions.md, Hardening: limits) and 50 per provider subscription. The count and the insert
 * run under the subscriber's lock, so concurrent creates never pass the cap.
 */
export async function createEndpoint(db: Tx, subscriber: Subscriber, fields: EndpointFields): Promise<WebhookEndpoint> {
  await validate(fields, true);
  return db.transaction(async (tx) => {
    const key = "ownerId" in subscriber ? `owner:${subscriber.ownerId}:${subscriber.clientId}` : `provider:${subscriber.providerId}`;
    await tx.execute(sql`select pg_advisory_xact_lock(${ENDPOINT_CAP_LOCK_SPACE}, hashtext(${key}))`);
    const [{ held }] = await tx
      .select({ held: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(and(subscriberCondition(subscriber), isNull(webhookEndpoints.deletedAt)));
    if (held >= MAX_ENDPOINTS_PER_SUBSCRIBER) {
      const limit = "ownerId" in subscriber ? WEBHOOK_MESSAGES.tooManyOwnerEndpoints : WEBHOOK_MESSAGES.tooManyProviderEndpoints;
      throw errors.invalidFields(limit(MAX_ENDPOINTS_PER_SUBSCRIBER), {});
    }
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({
        id: `we_${randomToken(12)}`,
        ...("ownerId" in subscriber ? { ownerId: subscriber.ownerId } : { providerId: subscriber.providerId }),
        clientId: subscriber.clientId,
        name: fields.name as string,
        destinationUrl: fields.destination_url as string,
        events: [...new Set(fields.events)],
        status: fields.status ?? "active",
      })
      .returning();
    return endpoint;
  });
}

export async function listEndpoints(tx: Tx, subscriber: Subscriber): Promise<WebhookEndpoint[]> {
  return tx
    .select()
    .from(webhookEndpoints)
    .where(and(subscriberCondition(subscriber), isNull(webhookEndpoints.deletedAt)))
    .orderBy(desc(webhookEndpoints.createdAt));
}

/** The subscriber's endpoint, or 404: an owner route never reaches a provider's endpoint, and the reverse. */
export async function findEndpoint(tx: Tx, subscriber: Subscriber, id: string, options: { lock?: boolean } = {}): Promise<WebhookEndpoint> {
  const query = tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), subscriberCondition(subscriber), isNull(webhookEndpoints.deletedAt)));
  const [endpoint] = options.lock ? await query.for("no key update") : await query;
  if (!endpoint) throw errors.notFound(WEBHOOK_MESSAGES.endpointNotFound);
  return endpoint;
}

/**
 * Updates the endpoint; a return to `active` re-enqueues the deliveries that waited while it was
 * suspended or disabled (spec Webhook delivery status: a status change never fails a delivery).
 * The row is locked first, so the status it changes from is the one that was in force.
 */
export async function updateEndpoint(db: Tx, subscriber: Subscriber, id: string, fields: EndpointFields): Promise<WebhookEndpoint> {
  await findEndpoint(db, subscriber, id); // 404 before 422; the destination's DNS check stays outside the lock
  await validate(fields, false);
  return db.transaction(async (tx) => {
    const before = await findEndpoint(tx, subscriber, id, { lock: true });
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({
        ...(fields.name !== undefined ? { name: fields.name } : {}),
        // A new destination has not shown it answers: its slow start begins again (docs/decisions.md,
        // "Delivery engine: a dispatcher per worker").
        ...(fields.destination_url !== undefined && fields.destination_url !== before.destinationUrl
          ? { destinationUrl: fields.destination_url, firstDeliveredAt: null }
          : {}),
        ...(fields.events !== undefined ? { events: [...new Set(fields.events)] } : {}),
        // A status set by the partner or staff replaces an automatic suspension's reason (decisions §16 Auto-suspend).
        ...(fields.status !== undefined ? { status: fields.status, suspensionReason: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    if (before.status !== "active" && endpoint.status === "active") await resumeEndpointDeliveries(tx, id);
    return endpoint;
  });
}

/**
 * Removes the endpoint from the API; its delivery history is kept and its open deliveries end
 * `failed` ("endpoint was deleted"), in the same transaction.
 */
export async function deleteEndpoint(db: Tx, subscriber: Subscriber, id: string): Promise<WebhookEndpoint> {
  return db.transaction(async (tx) => {
    await findEndpoint(tx, subscriber, id, { lock: true });
    const [endpoint] = await tx.update(webhookEndpoints).set({ deletedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(webhookEndpoints.id, id)).returning();
    await endEndpointDeliveries(tx, id);
    return endpoint;
  });
}

/**
 * spec Errors: the provider route answers 404 until the subscriber is provisioned. Another client's
 * subscription answers that same 404, byte for byte, so a provider code never reveals that it exists
 * (docs/decisions.md, Hardening: limits).
 */
export async function providerSubscriber(tx: Tx, code: string, clientId: string): Promise<Subscriber> {
  const [provider] = await tx
    .select({ id: providers.id })
    .from(providers)
    .where(and(eq(providers.code, code), eq(providers.clientId, clientId)));
  if (!provider) throw errors.notFound(WEBHOOK_MESSAGES.providerNotFound);
  return { providerId: provider.id, clientId };
}
