import type { Tx } from "../../server/db/client";
import { deliveryDetail, listDeliveries, retryDelivery } from "../webhooks/deliveries";
import { endpointView, findEndpoint, listEndpoints, updateEndpoint } from "../webhooks/endpoints";
import type { WebhookDelivery } from "../webhooks/webhooks.table";
import { endpointHealth } from "./health";
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

/** The partner route's retry, with its rules (409 while scheduled, a delivered one once a minute). */
export function retryPortalDelivery(tx: Tx, session: PortalSession, endpointId: string, deliveryId: string) {
  return retryDelivery(tx, session.subscriber, endpointId, deliveryId);
}

/**
 * Pause is `disabled`, resume is `active`, as the endpoint's PUT sets them: resuming re-enqueues the
 * deliveries that waited. `suspended` is the service's own status and is never set from here.
 */
export function setPortalEndpointPaused(tx: Tx, session: PortalSession, endpointId: string, paused: boolean) {
  return updateEndpoint(tx, session.subscriber, endpointId, { status: paused ? "disabled" : "active" });
}
