import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "../../server/db/client";
import { constantTimeEqual } from "../../server/secrets";
import { findOwnerBySlug } from "../owners/service";
import { EVENT_NAMES } from "../webhooks/catalog";
import { createEndpoint, updateEndpoint } from "../webhooks/endpoints";
import { signingSecretsFor } from "../webhooks/secrets";
import { webhookDigest } from "../webhooks/signing";
import { type WebhookEndpoint, webhookEndpoints } from "../webhooks/webhooks.table";

/** The endpoint the demo seed registers for the demo owner, found again by this name. */
export const DEMO_ENDPOINT_NAME = "Demo page receiver";

/** The in-app receiver route (staging only, src/app/demo/webhooks). */
export const DEMO_RECEIVER_PATH = "/demo/webhooks";

/**
 * A reserved name (RFC 6761 `.invalid` never resolves): where the demo endpoint points when the
 * service is not itself reachable over HTTPS (a local `http://localhost` start). Webhooks are HTTPS
 * only (decisions §3), so no honest local destination exists; its deliveries are created with their
 * exact payloads and retried, and their failure says why.
 */
export const UNREACHABLE_DEMO_DESTINATION = "https://demo-receiver.invalid/demo/webhooks";

/**
 * The demo endpoint's destination: the service's own receiver when the public base URL is HTTPS (a
 * deployed staging: deliveries really travel and are acknowledged), otherwise the unreachable name.
 */
export function demoEndpointDestination(publicBaseUrl: string): string {
  return publicBaseUrl.startsWith("https://") ? `${publicBaseUrl}${DEMO_RECEIVER_PATH}` : UNREACHABLE_DEMO_DESTINATION;
}

/**
 * Registers (or points again) the demo owner's endpoint, subscribed to every event, as the demo
 * client: the deliveries the /demo page shows. Writes nothing when it is already as wanted. A
 * destination the guard refuses (e.g. a staging host resolving to a private address) falls back to
 * the unreachable name rather than failing the start.
 */
export async function ensureDemoEndpoint(tx: Tx, ownerId: number, clientId: string, publicBaseUrl: string): Promise<WebhookEndpoint> {
  const subscriber = { ownerId, clientId };
  const [existing] = await tx
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.ownerId, ownerId),
        eq(webhookEndpoints.clientId, clientId),
        eq(webhookEndpoints.name, DEMO_ENDPOINT_NAME),
        isNull(webhookEndpoints.deletedAt),
      ),
    );
  const wanted = demoEndpointDestination(publicBaseUrl);
  const events = [...EVENT_NAMES];
  const upToDate = (endpoint: WebhookEndpoint, destination: string) =>
    endpoint.destinationUrl === destination && endpoint.status === "active" && events.every((event) => endpoint.events.includes(event));
  const register = async (destination: string): Promise<WebhookEndpoint> => {
    if (existing && upToDate(existing, destination)) return existing;
    const fields = { name: DEMO_ENDPOINT_NAME, destination_url: destination, events, status: "active" as const };
    return existing ? updateEndpoint(tx, subscriber, existing.id, fields) : createEndpoint(tx, subscriber, fields);
  };
  if (wanted === UNREACHABLE_DEMO_DESTINATION) return register(wanted);
  // The guard checks before writing anything, so a refusal leaves the transaction usable.
  return register(wanted).catch(() => register(UNREACHABLE_DEMO_DESTINATION));
}

/**
 * The receiver's check (spec Events, Headers): `X-Webhook-Signature` `t=…,v1=…[,v1=…]` over
 * `<t>.<raw body>` with the demo owner's signing secret(s). True only for a delivery the service
 * really sent to the demo endpoint.
 */
export async function isDemoDelivery(db: Db, ownerSlug: string, signature: string, rawBody: string, now = new Date()): Promise<boolean> {
  const owner = await findOwnerBySlug(db, ownerSlug);
  if (!owner) return false;
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerId, owner.id), eq(webhookEndpoints.name, DEMO_ENDPOINT_NAME), isNull(webhookEndpoints.deletedAt)));
  if (!endpoint) return false;
  const parts = signature.split(",").map((part) => part.trim());
  const timestamp = Number(parts.find((part) => part.startsWith("t="))?.slice(2));
  // Like any receiver: a replayed delivery older than five minutes is refused.
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > 300) return false;
  const digests = parts.filter((part) => part.startsWith("v1=")).map((part) => part.slice(3));
  const secrets = await signingSecretsFor(db, endpoint, now);
  return secrets.some((secret) => digests.some((digest) => constantTimeEqual(digest, webhookDigest(secret, timestamp, rawBody))));
}
