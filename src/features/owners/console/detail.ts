import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { apiClients, clientOwnerGrants } from "../../auth/clients.table";
import { policies } from "../../policies/policies.table";
import { prospects } from "../../prospects/prospects.table";
import { bankAccounts, properties, units } from "../../roster/roster.table";
import { webhookEndpoints } from "../../webhooks/webhooks.table";
import { ownerMerges } from "../merge/merge.table";
import { propertyOwners } from "../owners.table";

/**
 * The console's owner list and owner page (decisions §12 Owners: detail with roster, prospects,
 * policies, endpoints, grants). Only counts and names: never an account number or a secret.
 */

export const ownerRow = z.object({
  owner_slug: z.string(),
  external_org_id: z.string(),
  name: z.string(),
  managed: z.boolean(),
  purchase_flow_enabled: z.boolean(),
  max_coverage_amount_cents: z.number().int().nullable(),
  guarantor_coverage_capable: z.boolean(),
  created_at: z.string(),
});

export const ownerListInput = z.object({ query: z.string().trim().max(200).optional() }).optional();

/** Newest first; `query` matches name, slug or external_org_id (case-insensitive, `%`/`_` literal). */
export async function listOwnersForConsole(db: Db, query?: string): Promise<z.infer<typeof ownerRow>[]> {
  const like = query ? `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await db
    .select()
    .from(propertyOwners)
    .where(like ? or(ilike(propertyOwners.name, like), ilike(propertyOwners.slug, like), ilike(propertyOwners.externalOrgId, like)) : undefined)
    .orderBy(desc(propertyOwners.createdAt))
    .limit(500);
  return rows.map((owner) => ({
    owner_slug: owner.slug,
    external_org_id: owner.externalOrgId,
    name: owner.name,
    managed: owner.managed,
    purchase_flow_enabled: owner.purchaseFlowEnabled,
    max_coverage_amount_cents: owner.maxCoverageAmountCents,
    guarantor_coverage_capable: owner.guarantorCoverageCapable,
    created_at: owner.createdAt.toISOString(),
  }));
}

const ownerRef = z.object({ owner_slug: z.string(), name: z.string() });

export const ownerDetail = ownerRow.extend({
  id: z.number().int(),
  embedded_frame_ancestors: z.array(z.string()),
  merged_into: ownerRef.nullable(),
  merged_from: z.array(ownerRef.extend({ merged_at: z.string() })),
  roster: z.object({
    buildings: z.array(z.object({ id: z.number().int(), external_system_id: z.string().nullable(), building_name: z.string(), active: z.boolean() })),
    buildings_active: z.number().int(),
    buildings_inactive: z.number().int(),
    units: z.number().int(),
    bank_accounts: z.number().int(),
  }),
  prospects: z.number().int(),
  policies: z.number().int(),
  endpoints: z.array(
    // suspension_reason: why the service suspended it on its own (decisions §16 Auto-suspend), null otherwise.
    z.object({ id: z.string(), name: z.string(), destination_url: z.string(), status: z.string(), suspension_reason: z.string().nullable() }),
  ),
  client_grants: z.array(z.object({ client_id: z.string(), client_name: z.string(), disabled: z.boolean() })),
  signing_secret: z.object({ previous_valid_until: z.string().nullable() }),
});
export type OwnerDetail = z.infer<typeof ownerDetail>;

/** How many buildings the page lists (the rest are counted and found on the buildings screen). */
const BUILDINGS_SHOWN = 100;

/** The owner of this very slug (a merged duplicate shows as itself, pointing at its survivor). */
export async function ownerForConsole(db: Db, slug: string, now = new Date()): Promise<OwnerDetail> {
  const [owner] = await db.select().from(propertyOwners).where(eq(propertyOwners.slug, slug));
  if (!owner) throw errors.notFound(`No owner ${slug}`);
  const countOf = (rows: { n: number }[]) => Number(rows[0]?.n ?? 0);
  const [mergedInto, mergedFrom, buildings, buildingCounts, unitCount, bankCount, prospectCount, policyCount, endpoints, grants] = await Promise.all([
    owner.mergedIntoId === null
      ? Promise.resolve([])
      : db.select({ slug: propertyOwners.slug, name: propertyOwners.name }).from(propertyOwners).where(eq(propertyOwners.id, owner.mergedIntoId)),
    db
      .select({ slug: propertyOwners.slug, name: propertyOwners.name, mergedAt: ownerMerges.mergedAt })
      .from(ownerMerges)
      .innerJoin(propertyOwners, eq(propertyOwners.id, ownerMerges.fromOwnerId))
      .where(eq(ownerMerges.intoOwnerId, owner.id))
      .orderBy(desc(ownerMerges.mergedAt)),
    db
      .select({ id: properties.id, externalSystemId: properties.externalSystemId, buildingName: properties.buildingName, active: properties.active })
      .from(properties)
      .where(eq(properties.ownerId, owner.id))
      .orderBy(desc(properties.active), asc(properties.buildingName), asc(properties.id))
      .limit(BUILDINGS_SHOWN),
    db.select({ active: properties.active, n: count() }).from(properties).where(eq(properties.ownerId, owner.id)).groupBy(properties.active),
    db
      .select({ n: count() })
      .from(units)
      .where(inArray(units.propertyId, db.select({ id: properties.id }).from(properties).where(eq(properties.ownerId, owner.id)))),
    db.select({ n: count() }).from(bankAccounts).where(eq(bankAccounts.ownerId, owner.id)),
    db.select({ n: count() }).from(prospects).where(eq(prospects.ownerId, owner.id)),
    db.select({ n: count() }).from(policies).where(eq(policies.ownerId, owner.id)),
    db
      .select({
        id: webhookEndpoints.id,
        name: webhookEndpoints.name,
        destinationUrl: webhookEndpoints.destinationUrl,
        status: webhookEndpoints.status,
        suspensionReason: webhookEndpoints.suspensionReason,
      })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.ownerId, owner.id), isNull(webhookEndpoints.deletedAt)))
      .orderBy(asc(webhookEndpoints.createdAt)),
    db
      .select({ clientId: apiClients.id, name: apiClients.name, disabled: sql<boolean>`${apiClients.disabledAt} is not null` })
      .from(clientOwnerGrants)
      .innerJoin(apiClients, eq(apiClients.id, clientOwnerGrants.clientId))
      .where(eq(clientOwnerGrants.ownerId, owner.id))
      .orderBy(asc(apiClients.name)),
  ]);
  const previousValid = owner.previousSigningSecretExpiresAt && owner.previousSigningSecretExpiresAt > now ? owner.previousSigningSecretExpiresAt : null;
  return {
    id: owner.id,
    owner_slug: owner.slug,
    external_org_id: owner.externalOrgId,
    name: owner.name,
    managed: owner.managed,
    purchase_flow_enabled: owner.purchaseFlowEnabled,
    max_coverage_amount_cents: owner.maxCoverageAmountCents,
    guarantor_coverage_capable: owner.guarantorCoverageCapable,
    embedded_frame_ancestors: owner.embeddedFrameAncestors,
    created_at: owner.createdAt.toISOString(),
    merged_into: mergedInto[0] ? { owner_slug: mergedInto[0].slug, name: mergedInto[0].name } : null,
    merged_from: mergedFrom.map((row) => ({ owner_slug: row.slug, name: row.name, merged_at: row.mergedAt.toISOString() })),
    roster: {
      buildings: buildings.map((row) => ({ id: row.id, external_system_id: row.externalSystemId, building_name: row.buildingName, active: row.active })),
      buildings_active: Number(buildingCounts.find((row) => row.active)?.n ?? 0),
      buildings_inactive: Number(buildingCounts.find((row) => !row.active)?.n ?? 0),
      units: countOf(unitCount),
      bank_accounts: countOf(bankCount),
    },
    prospects: countOf(prospectCount),
    policies: countOf(policyCount),
    endpoints: endpoints.map((row) => ({
      id: row.id,
      name: row.name,
      destination_url: row.destinationUrl,
      status: row.status,
      suspension_reason: row.suspensionReason,
    })),
    client_grants: grants.map((row) => ({ client_id: row.clientId, client_name: row.name, disabled: row.disabled })),
    signing_secret: { previous_valid_until: previousValid?.toISOString() ?? null },
  };
}
