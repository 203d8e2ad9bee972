import { and, asc, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { propertyOwners } from "../../owners/owners.table";
import { createClient, forgetCachedClient, newClientSecret } from "../clients";
import { apiClients, clientOwnerGrants } from "../clients.table";
import { type Scope, scopesOfGateway } from "../scopes";
import { audienceOf } from "../tokens";
import { clientCreateInput, clientGateway, clientIdInput, clientSearchInput, clientStatusInput, clientUpdateInput } from "./clients.inputs";
import { ACCESS_MESSAGES as M } from "./messages";

/**
 * The console's API clients (docs/decisions.md, "Console: access management, part A"; decisions §4 `client create`, §12): search, detail,
 * create with the secret shown once, secret rotation, scopes and the signature requirement. Every
 * change is audited without the secret, and drops this process's cached client row so it applies
 * to the next partner request (docs/decisions.md, Console: access management).
 */

export { clientCreateInput, clientIdInput, clientSearchInput, clientStatusInput, clientUpdateInput };

export const clientRow = z.object({
  client_id: z.string(),
  name: z.string(),
  gateway: clientGateway,
  provider_code: z.string().nullable(),
  /** An ingestion client's partner (decisions §15 Ingestion); null otherwise. */
  partner_client_id: z.string().nullable(),
  scopes: z.array(z.string()),
  require_signature: z.boolean(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  secret_rotated_at: z.string().nullable(),
  owner_grants: z.number().int(),
});
export type ClientRow = z.infer<typeof clientRow>;

export const clientGrant = z.object({ owner_slug: z.string(), owner_name: z.string(), managed: z.boolean(), granted_at: z.string() });
export const clientDetail = clientRow.extend({ gateway_scopes: z.array(z.string()), grants: z.array(clientGrant) });

export const createdClient = z.object({ client: clientRow, client_secret: z.string() });

const grantCount = sql<number>`(select count(*)::int from ${clientOwnerGrants} where ${clientOwnerGrants.clientId} = ${apiClients.id})`;

const rowOf = (client: typeof apiClients.$inferSelect, ownerGrants: number): ClientRow => ({
  client_id: client.id,
  name: client.name,
  gateway: client.gateway,
  provider_code: client.providerCode,
  partner_client_id: client.partnerClientId,
  scopes: client.scopes,
  require_signature: client.requireSignature,
  created_at: client.createdAt.toISOString(),
  disabled_at: client.disabledAt?.toISOString() ?? null,
  secret_rotated_at: client.secretRotatedAt?.toISOString() ?? null,
  owner_grants: ownerGrants,
});

/** What the audit log keeps of a client: never its secret or its hash. */
const audited = (client: typeof apiClients.$inferSelect) => ({
  name: client.name,
  gateway: client.gateway,
  provider_code: client.providerCode,
  partner_client_id: client.partnerClientId,
  scopes: client.scopes,
  require_signature: client.requireSignature,
  secret_version: client.secretVersion,
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function searchClients(db: Tx, input: z.infer<typeof clientSearchInput>): Promise<ClientRow[]> {
  const conditions: SQL[] = [];
  if (input.query) {
    const pattern = `%${escapeLike(input.query)}%`;
    conditions.push(or(ilike(apiClients.name, pattern), ilike(apiClients.id, pattern)) as SQL);
  }
  if (input.gateway) conditions.push(eq(apiClients.gateway, input.gateway));
  if (input.provider) conditions.push(eq(apiClients.providerCode, input.provider));
  const rows = await db
    .select({ client: apiClients, grants: grantCount })
    .from(apiClients)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(apiClients.createdAt), asc(apiClients.id))
    .limit(200);
  return rows.map((row) => rowOf(row.client, row.grants));
}

/** Any client, disabled ones included (the console shows them); NOT_FOUND otherwise. */
export async function clientById(tx: Tx, clientId: string, options: { lock?: boolean } = {}) {
  const query = tx.select().from(apiClients).where(eq(apiClients.id, clientId));
  const [client] = options.lock ? await query.for("update") : await query;
  if (!client) throw errors.notFound(M.clientNotFound(clientId));
  return client;
}

/** A client a change may be made to: it exists and is not disabled. */
export async function changeableClient(tx: Tx, clientId: string) {
  const client = await clientById(tx, clientId, { lock: true });
  if (client.disabledAt) throw errors.conflict(M.clientDisabled(clientId));
  return client;
}

export async function clientForConsole(db: Tx, clientId: string): Promise<z.infer<typeof clientDetail>> {
  const client = await clientById(db, clientId);
  const grants = await db
    .select({ slug: propertyOwners.slug, name: propertyOwners.name, managed: propertyOwners.managed, at: clientOwnerGrants.createdAt })
    .from(clientOwnerGrants)
    .innerJoin(propertyOwners, eq(propertyOwners.id, clientOwnerGrants.ownerId))
    .where(eq(clientOwnerGrants.clientId, clientId))
    .orderBy(asc(propertyOwners.slug));
  return {
    ...rowOf(client, grants.length),
    gateway_scopes: [...scopesOfGateway(client.gateway)],
    grants: grants.map((g) => ({ owner_slug: g.slug, owner_name: g.name, managed: g.managed, granted_at: g.at.toISOString() })),
  };
}

/** decisions §4 `client create` from the console: the secret is answered once, here, and audited never. */
export async function createClientByStaff(db: Db, actor: AuditActor, input: z.infer<typeof clientCreateInput>) {
  return db.transaction(async (tx) => {
    const created = await createClient(
      tx,
      {
        name: input.name,
        gateway: input.gateway,
        scopes: input.scopes as Scope[] | undefined,
        requireSignature: input.require_signature,
        providerCode: input.provider_code,
        partnerClientId: input.partner_client_id,
      },
      audienceOf(input.gateway),
    );
    const client = await clientById(tx, created.client_id);
    await recordAudit(tx, actor, { action: "clients.create", subject: { type: "client", id: client.id }, after: audited(client) });
    return { client: rowOf(client, 0), client_secret: created.client_secret };
  });
}

/**
 * A new secret, shown once. The old secret stops working at once, for token exchange and request
 * signatures, and so do the access tokens issued under it (their secret version is older).
 */
export async function rotateClientSecret(db: Db, actor: AuditActor, clientId: string) {
  const result = await db.transaction(async (tx) => {
    const before = await changeableClient(tx, clientId);
    const { secret, secretHash, secretEncrypted } = newClientSecret();
    const [after] = await tx
      .update(apiClients)
      .set({ secretHash, secretEncrypted, secretVersion: before.secretVersion + 1, secretRotatedAt: new Date() })
      .where(eq(apiClients.id, clientId))
      .returning();
    await recordAudit(tx, actor, {
      action: "clients.rotate_secret",
      subject: { type: "client", id: clientId },
      before: { secret_version: before.secretVersion },
      after: { secret_version: after.secretVersion },
    });
    return { client: rowOf(after, await grantsOf(tx, clientId)), client_secret: secret };
  });
  forgetCachedClient(clientId);
  return result;
}

/** Scopes (only the client's gateway's, at least one) and the signature requirement; audited when changed. */
export async function updateClient(db: Db, actor: AuditActor, input: z.infer<typeof clientUpdateInput>): Promise<ClientRow> {
  const result = await db.transaction(async (tx) => {
    const before = await changeableClient(tx, input.client_id);
    const scopes = input.scopes ? [...new Set(input.scopes)] : before.scopes;
    const foreign = scopes.filter((scope) => !scopesOfGateway(before.gateway).includes(scope as Scope));
    if (foreign.length) throw errors.invalid(M.scopesForeign(before.gateway, foreign), "scopes");
    const requireSignature = input.require_signature ?? before.requireSignature;
    const same = requireSignature === before.requireSignature && scopes.length === before.scopes.length && scopes.every((s) => before.scopes.includes(s));
    if (same) return rowOf(before, await grantsOf(tx, before.id));
    const [after] = await tx.update(apiClients).set({ scopes, requireSignature }).where(eq(apiClients.id, before.id)).returning();
    await recordAudit(tx, actor, { action: "clients.update", subject: { type: "client", id: before.id }, before: audited(before), after: audited(after) });
    return rowOf(after, await grantsOf(tx, before.id));
  });
  forgetCachedClient(input.client_id);
  return result;
}

/**
 * Disables a client (a leaked secret, a partner gone) or enables it again. A disabled client gets no
 * token, and its tokens already issued are refused on their next request (the bearer check reads
 * only enabled clients; this process's cached row is dropped, other processes' within
 * CLIENT_CACHE_MS). Grants, sources and endpoints are kept, so enabling restores exactly what was.
 * Asking for the state a client is already in changes nothing and records nothing.
 */
export async function setClientDisabled(db: Db, actor: AuditActor, input: z.infer<typeof clientStatusInput>): Promise<ClientRow> {
  const result = await db.transaction(async (tx) => {
    const before = await clientById(tx, input.client_id, { lock: true });
    if (Boolean(before.disabledAt) === input.disabled) return rowOf(before, await grantsOf(tx, before.id));
    const [after] = await tx
      .update(apiClients)
      .set({ disabledAt: input.disabled ? new Date() : null })
      .where(eq(apiClients.id, before.id))
      .returning();
    await recordAudit(tx, actor, {
      action: input.disabled ? "clients.disable" : "clients.enable",
      subject: { type: "client", id: before.id },
      before: { disabled_at: before.disabledAt?.toISOString() ?? null },
      after: { disabled_at: after.disabledAt?.toISOString() ?? null },
    });
    return rowOf(after, await grantsOf(tx, before.id));
  });
  forgetCachedClient(input.client_id);
  return result;
}

async function grantsOf(tx: Tx, clientId: string): Promise<number> {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(clientOwnerGrants).where(eq(clientOwnerGrants.clientId, clientId));
  return row?.n ?? 0;
}
