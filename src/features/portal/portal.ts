import type { Tx } from "../../server/db/client";
import { errors, GATEWAY_MESSAGES } from "../../server/errors";
import { type ClientActor, recordAudit } from "../audit/audit";
import { deliveryDetail, listDeliveries, retryDelivery } from "../webhooks/deliveries";
import { endpointView, findEndpoint, listEndpoints, updateEndpoint } from "../webhooks/endpoints";
import { sendTestEvent } from "../webhooks/test-events";
import type { WebhookDelivery } from "../webhooks/webhooks.table";
import { endpointHealth } from "./health";
import { PORTAL_MESSAGES } from "./messages";
import type { PortalSession } from "./session";

/**
 * What the portal's pages read and change (decisions §16 Portal). Each goes through the webhook
 * functions the partner routes use, with the session's subscriber (its owner and its client), so a
 * page reaches exactly what `GET/PUT …/webhooks/endpoints` and the delivery routes reach with that
 * client's token: an endpoint or delivery of anyone else answers not found, whatever the path says.
 */

export async function portalEndpoints(tx: Tx, session: PortalSession) {
  const endpoints = await listEndpoints(tx, session.subscriber);
  const health = await endpointHealth(
    tx,
    endpoints.map((endpoint) => endpoint.id),
  );
  return endpoints.map((endpoint) => ({ ...endpointView(endpoint), health: health.get(endpoint.id) ?? null }));
}

export async function portalEndpoint(tx: Tx, session: PortalSession, endpointId: string) {
  const endpoint = await findEndpoint(tx, session.subscriber, endpointId);
  const health = await endpointHealth(tx, [endpoint.id]);
  return { ...endpointView(endpoint), health: health.get(endpoint.id) ?? null };
}

export const PORTAL_PAGE_SIZE = 25;

export function portalDeliveries(tx: Tx, session: PortalSession, endpointId: string, filters: { status?: WebhookDelivery["status"]; cursor?: string }) {
  return listDeliveries(tx, session.subscriber, endpointId, { ...filters, limit: PORTAL_PAGE_SIZE });
}

export function portalDelivery(tx: Tx, session: PortalSession, endpointId: string, deliveryId: string) {
  return deliveryDetail(tx, session.subscriber, endpointId, deliveryId);
}

/**
 * Who acts from the portal, in the audit log: the session's client through the session
 * (docs/decisions.md, "Second security review"). Each change below writes its row in its transaction.
 */
export const portalActor = (session: PortalSession): ClientActor => ({ client: session.clientId, portalSession: session.id });

/** The partner route's retry, with its rules (409 while scheduled, a delivered one once a minute). */
export function retryPortalDelivery(db: Tx, session: PortalSession, endpointId: string, deliveryId: string) {
  return db.transaction(async (tx) => {
    const retried = await retryDelivery(tx, session.subscriber, endpointId, deliveryId);
    await recordAudit(tx, portalActor(session), {
      action: "deliveries.retry",
      subject: { type: "delivery", id: deliveryId },
      ownerId: session.owner.id,
      after: { endpoint_id: endpointId },
    });
    return retried;
  });
}

/**
 * Pause is `disabled`, resume is `active`, as the endpoint's PUT sets them: resuming re-enqueues the
 * deliveries that waited. `suspended` is the service's own status and is never set from here.
 */
export function setPortalEndpointPaused(db: Tx, session: PortalSession, endpointId: string, paused: boolean) {
  return db.transaction(async (tx) => {
    const before = await findEndpoint(tx, session.subscriber, endpointId);
    const endpoint = await updateEndpoint(tx, session.subscriber, endpointId, { status: paused ? "disabled" : "active" });
    await recordAudit(tx, portalActor(session), {
      action: paused ? "webhook_endpoints.pause" : "webhook_endpoints.resume",
      subject: { type: "webhook_endpoint", id: endpointId },
      ownerId: session.owner.id,
      before: { status: before.status },
      after: { status: endpoint.status },
    });
    return endpoint;
  });
}

/**
 * The partner route's test event (docs/decisions.md, "Partner developer: test events"): one delivery
 * of the event's example body to this endpoint only, marked `test`; the event must be one it subscribes to.
 */
export function sendPortalTestEvent(db: Tx, session: PortalSession, endpointId: string, event: string) {
  return db.transaction(async (tx) => {
    const sent = await sendTestEvent(tx, session.subscriber, endpointId, event);
    await recordAudit(tx, portalActor(session), {
      action: "webhook_endpoints.test_event",
      subject: { type: "webhook_endpoint", id: endpointId },
      ownerId: session.owner.id,
      after: { event, delivery_id: sent.deliveryId },
    });
    return sent;
  });
}

/** A `datetime-local` value (minutes, optional seconds), read as UTC: the form says so. */
const LOCAL_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The form's `since` as the instant the partner route takes, or undefined when it is not a real date-time. */
export function sinceOf(value: string): string | undefined {
  const parts = LOCAL_UTC.exec(value);
  if (!parts || parts[1] === "0000") return undefined;
  const iso = `${parts[1]}-${parts[2]}-${parts[3]}T${parts[4]}:${parts[5]}:${parts[6] ?? "00"}Z`;
  const at = new Date(iso);
  // Date rolls 2026-02-31 over to March: a date that does not exist is refused, not moved.
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 19) === iso.slice(0, 19) ? iso : undefined;
}

/** What the portal's recovery form may retry: the partner route's `status` values. */
export const PORTAL_RETRYABLE = ["failed", "retrying"] as const;

/**
 * The portal's recovery form read as the partner route's body (docs/decisions.md, "Partner developer:
 * self-serve recovery"): `status` failed or retrying, `since` a date-time in UTC. A bad field is
 * refused with its message, before anything is recorded. The page's action then calls the route's
 * own `startEndpointRetry` with the session's subscriber (404 for another's endpoint, 409 while one runs).
 */
export function portalRetryInput(input: { status: string; since: string }): { status: (typeof PORTAL_RETRYABLE)[number]; since: string } {
  const status = PORTAL_RETRYABLE.find((value) => value === input.status);
  const since = sinceOf(input.since);
  const fields: Record<string, string[]> = {};
  if (!status) fields.status = [PORTAL_MESSAGES.retryStatusInvalid];
  if (!since) fields.since = [PORTAL_MESSAGES.sinceInvalid];
  if (!status || !since) throw errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, fields);
  return { status, since };
}
