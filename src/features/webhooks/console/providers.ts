import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { apiClients } from "../../auth/clients.table";
import { propertyOwners } from "../../owners/owners.table";
import { properties } from "../../roster/roster.table";
import { type BuildingRef, createProvider, resolveBuildings, resolveOwners } from "../providers";
import { providerBuildings, providerOwners, providers } from "../providers.table";
import { type providerBuilding, providerCoverageInput, providerCreateInput, providerRemoveCoverageInput, providerSearchInput } from "./providers.inputs";

/**
 * Provider subscriptions and their coverage from the console (docs/decisions.md, "Console: access management, part A"; decisions §4
 * `provider create`; spec Delivery mechanics 6): whole owners and/or single buildings; with
 * neither, every owner granted to the provider's client. Each change is audited (never the
 * provider's signing secret).
 */

const M = { providerNotFound: (code: string) => `No provider ${code}`, notCovered: "The provider does not cover it" };

export { providerCoverageInput, providerCreateInput, providerRemoveCoverageInput, providerSearchInput };

export const providerRow = z.object({
  code: z.string(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  owners: z.array(z.object({ owner_slug: z.string(), name: z.string() })),
  buildings: z.array(z.object({ id: z.number().int(), owner_slug: z.string(), external_id: z.string(), name: z.string() })),
  /** No owners and no buildings: every owner granted to the client (spec Delivery mechanics 6). */
  covers_granted_owners: z.boolean(),
  created_at: z.string(),
});
type ProviderRow = z.infer<typeof providerRow>;

async function rowsOf(tx: Tx, list: (typeof providers.$inferSelect)[]): Promise<ProviderRow[]> {
  if (!list.length) return [];
  const ids = list.map((p) => p.id);
  const [owners, buildings, clients] = await Promise.all([
    tx
      .select({ providerId: providerOwners.providerId, slug: propertyOwners.slug, name: propertyOwners.name })
      .from(providerOwners)
      .innerJoin(propertyOwners, eq(propertyOwners.id, providerOwners.ownerId))
      .where(inArray(providerOwners.providerId, ids))
      .orderBy(asc(propertyOwners.slug)),
    tx
      .select({
        providerId: providerBuildings.providerId,
        id: properties.id,
        slug: propertyOwners.slug,
        externalId: properties.externalSystemId,
        name: properties.buildingName,
      })
      .from(providerBuildings)
      .innerJoin(properties, eq(properties.id, providerBuildings.propertyId))
      .innerJoin(propertyOwners, eq(propertyOwners.id, properties.ownerId))
      .where(inArray(providerBuildings.providerId, ids))
      .orderBy(asc(propertyOwners.slug), asc(properties.externalSystemId)),
    tx
      .select({ id: apiClients.id, name: apiClients.name })
      .from(apiClients)
      .where(inArray(apiClients.id, [...new Set(list.map((p) => p.clientId))])),
  ]);
  return list.map((p) => {
    const ownRows = owners.filter((o) => o.providerId === p.id);
    const buildingRows = buildings.filter((b) => b.providerId === p.id);
    return {
      code: p.code,
      client_id: p.clientId,
      client_name: clients.find((c) => c.id === p.clientId)?.name ?? null,
      owners: ownRows.map((o) => ({ owner_slug: o.slug, name: o.name })),
      buildings: buildingRows.map((b) => ({ id: b.id, owner_slug: b.slug, external_id: b.externalId ?? "", name: b.name })),
      covers_granted_owners: ownRows.length === 0 && buildingRows.length === 0,
      created_at: p.createdAt.toISOString(),
    };
  });
}

export async function searchProviders(db: Tx, input: z.infer<typeof providerSearchInput>) {
  const list = await db
    .select()
    .from(providers)
    .where(input.client_id ? eq(providers.clientId, input.client_id) : undefined)
    .orderBy(asc(providers.code))
    .limit(200);
  return rowsOf(db, list);
}

async function providerByCode(tx: Tx, code: string) {
  const [provider] = await tx.select().from(providers).where(eq(providers.code, code)).for("update");
  if (!provider) throw errors.notFound(M.providerNotFound(code));
  return provider;
}

/** What the audit log keeps of a provider's coverage. */
const coverage = (row: ProviderRow) => ({
  client_id: row.client_id,
  owners: row.owners.map((o) => o.owner_slug),
  buildings: row.buildings.map((b) => ({ owner_slug: b.owner_slug, external_id: b.external_id })),
});
const refsOf = (buildings: z.infer<typeof providerBuilding>[]): BuildingRef[] => buildings.map((b) => ({ ownerSlug: b.owner_slug, externalId: b.external_id }));

export async function createProviderByStaff(db: Db, actor: AuditActor, input: z.infer<typeof providerCreateInput>) {
  return db.transaction(async (tx) => {
    const [client] = await tx.select({ gateway: apiClients.gateway }).from(apiClients).where(eq(apiClients.id, input.client_id));
    if (client && client.gateway !== "partner") throw errors.invalid("A provider's client must be a Partner API client", "client_id");
    await createProvider(tx, { code: input.code, clientId: input.client_id, ownerSlugs: input.owner_slugs, buildings: refsOf(input.buildings) });
    const [row] = await rowsOf(tx, [await providerByCode(tx, input.code)]);
    await recordAudit(tx, actor, { action: "providers.create", subject: { type: "provider", id: input.code }, after: coverage(row) });
    return row;
  });
}

/** Adds owners and/or buildings to the coverage; those already covered are left as they are. */
export async function addProviderCoverage(db: Db, actor: AuditActor, input: z.infer<typeof providerCoverageInput>) {
  return db.transaction(async (tx) => {
    const provider = await providerByCode(tx, input.code);
    const owners = await resolveOwners(tx, [...new Set(input.owner_slugs)]);
    const buildings = await resolveBuildings(tx, refsOf(input.buildings));
    if (!owners.length && !buildings.length) throw errors.invalid("Name at least one owner or building", "owner_slugs");
    const [before] = await rowsOf(tx, [provider]);
    if (owners.length)
      await tx
        .insert(providerOwners)
        .values(owners.map((o) => ({ providerId: provider.id, ownerId: o.id })))
        .onConflictDoNothing();
    if (buildings.length)
      await tx
        .insert(providerBuildings)
        .values(buildings.map((b) => ({ providerId: provider.id, propertyId: b.id })))
        .onConflictDoNothing();
    const [after] = await rowsOf(tx, [provider]);
    if (JSON.stringify(coverage(before)) !== JSON.stringify(coverage(after)))
      await recordAudit(tx, actor, {
        action: "providers.add_coverage",
        subject: { type: "provider", id: provider.code },
        before: coverage(before),
        after: coverage(after),
      });
    return after;
  });
}

/** Removes one owner or one building from the coverage; NOT_FOUND when it was not covered. */
export async function removeProviderCoverage(db: Db, actor: AuditActor, input: z.infer<typeof providerRemoveCoverageInput>) {
  return db.transaction(async (tx) => {
    const provider = await providerByCode(tx, input.code);
    const [before] = await rowsOf(tx, [provider]);
    let removed = 0;
    if (input.owner_slug !== undefined) {
      const [owner] = await resolveOwners(tx, [input.owner_slug]);
      removed = (
        await tx
          .delete(providerOwners)
          .where(and(eq(providerOwners.providerId, provider.id), eq(providerOwners.ownerId, owner.id)))
          .returning()
      ).length;
    } else if (input.building) {
      const [found] = await resolveBuildings(tx, refsOf([input.building]));
      removed = (
        await tx
          .delete(providerBuildings)
          .where(and(eq(providerBuildings.providerId, provider.id), eq(providerBuildings.propertyId, found.id)))
          .returning()
      ).length;
    }
    if (!removed) throw errors.notFound(M.notCovered);
    const [after] = await rowsOf(tx, [provider]);
    await recordAudit(tx, actor, {
      action: "providers.remove_coverage",
      subject: { type: "provider", id: provider.code },
      before: coverage(before),
      after: coverage(after),
    });
    return after;
  });
}
