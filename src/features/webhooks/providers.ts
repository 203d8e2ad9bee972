import { and, eq, inArray, or } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { encryptSecret } from "../../server/secrets";
import { findActiveClient } from "../auth/clients";
import { propertyOwners } from "../owners/owners.table";
import { newSigningSecret } from "../owners/service";
import { properties } from "../roster/roster.table";
import { providerBuildings, providerOwners, providers } from "./providers.table";

/** A building named by the operator: its owner's slug and its `external_system_id` under that owner. */
export type BuildingRef = { ownerSlug: string; externalId: string };

export async function resolveOwners(tx: Tx, slugs: string[]) {
  if (slugs.length === 0) return [];
  const owners = await tx.select({ id: propertyOwners.id, slug: propertyOwners.slug }).from(propertyOwners).where(inArray(propertyOwners.slug, slugs));
  const missing = slugs.filter((slug) => !owners.some((owner) => owner.slug === slug));
  if (missing.length) throw errors.notFound(`No owner ${missing.join(", ")}`);
  return owners;
}

export async function resolveBuildings(tx: Tx, refs: BuildingRef[]) {
  if (refs.length === 0) return [];
  const rows = await tx
    .select({ id: properties.id, ownerSlug: propertyOwners.slug, externalId: properties.externalSystemId })
    .from(properties)
    .innerJoin(propertyOwners, eq(propertyOwners.id, properties.ownerId))
    .where(or(...refs.map((ref) => and(eq(propertyOwners.slug, ref.ownerSlug), eq(properties.externalSystemId, ref.externalId)))));
  const found = (ref: BuildingRef) => rows.find((row) => row.ownerSlug === ref.ownerSlug && row.externalId === ref.externalId);
  const missing = refs.filter((ref) => !found(ref));
  if (missing.length) throw errors.notFound(`No building ${missing.map((ref) => `${ref.externalId} under owner ${ref.ownerSlug}`).join(", ")}`);
  return [...new Map(refs.map((ref) => [found(ref)?.id as number, ref])).entries()].map(([id, ref]) => ({ id, ...ref }));
}

/**
 * decisions §4 `provider create`: provisions a provider subscriber and its coverage (spec Delivery
 * mechanics 6): whole owners, single buildings, or, with neither, every owner granted to its client.
 */
export async function createProvider(tx: Tx, input: { code: string; clientId: string; ownerSlugs?: string[]; buildings?: BuildingRef[] }) {
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(input.code)) throw errors.invalid("Provider code must be lowercase letters, digits, '_' or '-'", "code");
  if (!(await findActiveClient(tx, input.clientId))) throw errors.notFound(`No active client ${input.clientId}`);
  const owners = await resolveOwners(tx, [...new Set(input.ownerSlugs ?? [])]);
  const buildings = await resolveBuildings(tx, input.buildings ?? []);
  const [provider] = await tx
    .insert(providers)
    .values({ code: input.code, clientId: input.clientId, signingSecretEncrypted: encryptSecret(newSigningSecret()) })
    .onConflictDoNothing({ target: providers.code })
    .returning();
  if (!provider) throw errors.conflict(`Provider ${input.code} already exists`);
  if (owners.length) await tx.insert(providerOwners).values(owners.map((owner) => ({ providerId: provider.id, ownerId: owner.id })));
  if (buildings.length) await tx.insert(providerBuildings).values(buildings.map((building) => ({ providerId: provider.id, propertyId: building.id })));
  return {
    provider: {
      code: provider.code,
      client_id: provider.clientId,
      owners: owners.map((owner) => owner.slug),
      buildings: buildings.map((building) => ({ owner_slug: building.ownerSlug, external_id: building.externalId })),
    },
  };
}
