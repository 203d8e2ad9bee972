import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { constantTimeEqual, decryptSecret, encryptSecret, hashGeneratedSecret, randomToken } from "../../server/secrets";
import { TtlCache } from "../../server/ttl-cache";
import { propertyOwners } from "../owners/owners.table";
import { apiClients, clientOwnerGrants } from "./clients.table";
import { type Gateway, type Scope, scopesOfGateway } from "./scopes";

export type ApiClient = typeof apiClients.$inferSelect;

export type CreatedClient = { client_id: string; client_secret: string; audience: string; scopes: Scope[] };

/**
 * Provisions a client (decisions §4 `client create`). The secret is shown once, here, and never again.
 * An ingestion client may name its partner, an active Partner API client (decisions §15 Ingestion).
 */
export async function createClient(
  tx: Tx,
  input: { name: string; gateway: Gateway; scopes?: Scope[]; requireSignature?: boolean; providerCode?: string; partnerClientId?: string },
  audience: string,
): Promise<CreatedClient> {
  const allowed = scopesOfGateway(input.gateway);
  const scopes = input.scopes?.length ? input.scopes : [...allowed];
  const foreign = scopes.filter((scope) => !allowed.includes(scope));
  if (foreign.length) throw errors.invalid(`Scopes not of the ${input.gateway} gateway: ${foreign.join(", ")}`, "scopes");
  if (input.partnerClientId !== undefined) await checkPartnerOfIngestion(tx, input.gateway, input.partnerClientId);
  const clientId = `${input.gateway === "partner" ? "pc" : "ic"}_${randomToken(12)}`;
  const { secret, secretHash, secretEncrypted } = newClientSecret();
  await tx.insert(apiClients).values({
    id: clientId,
    name: input.name,
    gateway: input.gateway,
    scopes,
    secretHash,
    secretEncrypted,
    requireSignature: input.requireSignature ?? false,
    providerCode: input.providerCode ?? null,
    partnerClientId: input.partnerClientId ?? null,
  });
  return { client_id: clientId, client_secret: secret, audience, scopes };
}

/** decisions §15 Ingestion: only an ingestion client has a partner, and it is an active Partner API client. */
async function checkPartnerOfIngestion(tx: Tx, gateway: Gateway, partnerClientId: string): Promise<void> {
  const field = "partner_client_id";
  if (gateway !== "ingestion") throw errors.invalid("Only an ingestion client has a partner client", field);
  const partner = await findActiveClient(tx, partnerClientId);
  if (!partner) throw errors.invalid(`No active client ${partnerClientId}`, field);
  if (partner.gateway !== "partner") throw errors.invalid(`Client ${partnerClientId} is not a Partner API client`, field);
}

/**
 * The clients whose sources an ingestion client's events may name (decisions §15 Ingestion): its own
 * and its partner's. An ingestion client without a partner (created before the rule) has only its own.
 */
export async function sourceOwnersOfIngestion(tx: Tx, ingestionClientId: string): Promise<string[]> {
  const [client] = await tx.select({ partnerClientId: apiClients.partnerClientId }).from(apiClients).where(eq(apiClients.id, ingestionClientId));
  return client?.partnerClientId ? [ingestionClientId, client.partnerClientId] : [ingestionClientId];
}

/** A new client secret: its hash (token exchange) and its sealed form (request signatures, decisions §6). */
export function newClientSecret(): { secret: string; secretHash: string; secretEncrypted: string } {
  const secret = randomToken(32);
  return { secret, secretHash: hashGeneratedSecret(secret), secretEncrypted: encryptSecret(secret) };
}

/** The active client with this id and secret, or undefined; never says which half was wrong. */
export async function authenticateClient(tx: Tx, clientId: string, secret: string): Promise<ApiClient | undefined> {
  const client = await findActiveClient(tx, clientId);
  const presented = hashGeneratedSecret(secret);
  // Compare even when the client is unknown, so timing does not reveal which half was wrong.
  const ok = constantTimeEqual(presented, client?.secretHash ?? hashGeneratedSecret(`absent:${clientId}`));
  return ok && client ? client : undefined;
}

export async function findActiveClient(tx: Tx, clientId: string): Promise<ApiClient | undefined> {
  const [client] = await tx
    .select()
    .from(apiClients)
    .where(and(eq(apiClients.id, clientId), isNull(apiClients.disabledAt)))
    .limit(1);
  return client;
}

/**
 * How long a request may act on a client row read earlier by this process: a client disabled (or
 * changed) elsewhere stops working within this time (docs/decisions.md, Caches).
 */
export const CLIENT_CACHE_MS = 5_000;
const activeClients = new TtlCache<ApiClient>(CLIENT_CACHE_MS);

/** `findActiveClient` for the per-request bearer check, read at most every CLIENT_CACHE_MS. */
export async function findActiveClientCached(tx: Tx, clientId: string): Promise<ApiClient | undefined> {
  const hit = activeClients.get(clientId);
  if (hit) return hit;
  const client = await findActiveClient(tx, clientId);
  if (client) activeClients.set(clientId, client);
  return client;
}

/**
 * Drops this process's cached row of a client, after a console change to it (scopes, signature,
 * secret): here the change applies to the next request; other processes see it within CLIENT_CACHE_MS.
 */
export function forgetCachedClient(clientId: string): void {
  activeClients.delete(clientId);
}

export function clientSecretOf(client: ApiClient): string {
  return decryptSecret(client.secretEncrypted);
}

export async function grantOwner(tx: Tx, clientId: string, ownerId: number): Promise<void> {
  await tx.insert(clientOwnerGrants).values({ clientId, ownerId }).onConflictDoNothing();
}

export async function grantOwnerBySlug(tx: Tx, clientId: string, ownerSlug: string): Promise<{ client_id: string; owner_slug: string }> {
  const client = await findActiveClient(tx, clientId);
  if (!client) throw errors.notFound(`No active client ${clientId}`);
  const [owner] = await tx.select({ id: propertyOwners.id }).from(propertyOwners).where(eq(propertyOwners.slug, ownerSlug));
  if (!owner) throw errors.notFound(`No owner ${ownerSlug}`);
  await grantOwner(tx, clientId, owner.id);
  return { client_id: clientId, owner_slug: ownerSlug };
}

/**
 * The owner of a slug and whether the client was granted it, in one statement (spec Owner slugs and
 * access: unknown slug 404, not granted 403). Undefined when the slug is unknown. The slug of an
 * owner merged into another answers for the survivor (decisions §12 Owners). Read on every request,
 * never cached (docs/decisions.md, Performance and caches); the statement's text is built once per
 * database client (docs/decisions.md, "Performance: API throughput"), only the slug and client id change.
 */
export async function ownerForClient(tx: Tx, slug: string, clientId: string): Promise<{ owner: Owner; granted: boolean } | undefined> {
  let query = ownerForClientQueries.get(tx);
  if (!query) {
    query = ownerForClientQuery(tx);
    ownerForClientQueries.set(tx, query);
  }
  const [row] = await query.execute({ slug, clientId });
  return row;
}

function ownerForClientQuery(tx: Tx) {
  return tx
    .select({
      owner: propertyOwners,
      granted: sql<boolean>`exists (select 1 from ${clientOwnerGrants} where ${clientOwnerGrants.clientId} = ${sql.placeholder("clientId")} and ${clientOwnerGrants.ownerId} = ${propertyOwners.id})`,
    })
    .from(propertyOwners)
    .where(eq(propertyOwners.id, sql`(select coalesce(o.merged_into_id, o.id) from property_owners o where o.slug = ${sql.placeholder("slug")})`))
    .limit(1)
    .prepare("owner_for_client");
}

const ownerForClientQueries = new WeakMap<Tx, ReturnType<typeof ownerForClientQuery>>();

type Owner = typeof propertyOwners.$inferSelect;

export async function isOwnerGranted(tx: Tx, clientId: string, ownerId: number): Promise<boolean> {
  const rows = await tx
    .select({ ownerId: clientOwnerGrants.ownerId })
    .from(clientOwnerGrants)
    .where(and(eq(clientOwnerGrants.clientId, clientId), eq(clientOwnerGrants.ownerId, ownerId)))
    .limit(1);
  return rows.length > 0;
}
