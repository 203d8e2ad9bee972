import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { propertyOwners } from "../../owners/owners.table";
import { properties, units } from "../../roster/roster.table";
import { prospects } from "../prospects.table";

export const PROSPECT_STATUSES = ["incomplete", "processing", "ready", "error"] as const;

/** Filters of the console's prospect search (docs/decisions.md, "Console: UI kit, prospects, overview, audit"); each is exact but the email's case. */
export const prospectSearchInput = z.object({
  owner: z.string().trim().max(200).optional(),
  source_prospect_id: z.string().trim().max(200).optional(),
  email: z.string().trim().max(320).optional(),
  status: z.enum(PROSPECT_STATUSES).optional(),
  /** Keyset paging: the id of the last row of the previous page (newest first). */
  cursor: z.number().int().positive().nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const consoleProspectRow = z.object({
  id: z.number().int(),
  owner_slug: z.string(),
  owner_name: z.string(),
  source: z.string(),
  source_prospect_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  status: z.enum(PROSPECT_STATUSES),
  eligible: z.boolean().nullable(),
  building: z.string().nullable(),
  unit: z.string().nullable(),
  updated_at: z.string(),
});

export const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(" ") || null;

/**
 * Prospects across owners, newest first. `owner` matches the owner's slug or external org id;
 * blank filters are ignored.
 */
export async function searchProspects(db: Tx, input: z.input<typeof prospectSearchInput>): Promise<z.infer<typeof consoleProspectRow>[]> {
  const filters = prospectSearchInput.parse(input);
  const conditions: SQL[] = [];
  if (filters.owner) conditions.push(sql`(${propertyOwners.slug} = ${filters.owner} or ${propertyOwners.externalOrgId} = ${filters.owner})`);
  if (filters.source_prospect_id) conditions.push(eq(prospects.sourceProspectId, filters.source_prospect_id));
  if (filters.email) conditions.push(sql`lower(${prospects.email}) = lower(${filters.email})`);
  if (filters.status) conditions.push(eq(prospects.status, filters.status));
  if (filters.cursor) conditions.push(lt(prospects.id, filters.cursor));
  const rows = await db
    .select({
      prospect: prospects,
      ownerSlug: propertyOwners.slug,
      ownerName: propertyOwners.name,
      building: properties.buildingName,
      unit: units.name,
    })
    .from(prospects)
    .innerJoin(propertyOwners, eq(propertyOwners.id, prospects.ownerId))
    .leftJoin(properties, eq(properties.id, prospects.propertyId))
    .leftJoin(units, eq(units.id, prospects.unitId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(prospects.id))
    .limit(filters.limit);
  return rows.map(({ prospect, ownerSlug, ownerName, building, unit }) => ({
    id: prospect.id,
    owner_slug: ownerSlug,
    owner_name: ownerName,
    source: prospect.source,
    source_prospect_id: prospect.sourceProspectId,
    email: prospect.email,
    name: fullName(prospect.firstName, prospect.lastName),
    status: prospect.status,
    eligible: prospect.eligibility ? prospect.eligibility.eligible : null,
    building,
    unit,
    updated_at: prospect.updatedAt.toISOString(),
  }));
}
