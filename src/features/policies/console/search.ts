import { and, desc, eq, ilike, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { propertyOwners } from "../../owners/owners.table";
import { prospects } from "../../prospects/prospects.table";
import { properties, units } from "../../roster/roster.table";
import { archivesOfPolicy } from "../documents/storage";
import { POLICY_MESSAGES as M } from "../messages";
import { POLICY_PRODUCTS, POLICY_STATUSES, policies } from "../policies.table";
import { historyOfPolicy, policyHistory } from "./history";

/**
 * The console's view of policies (decisions §11: `admin_policy_url` is `/console/policies/<numeric
 * id>`; §12 Prospects and policies). Staff see every owner's policies; revisions and cancellation
 * are in `revisions/`, the procedures in `console/router.ts`.
 */

export const consolePolicyRow = z.object({
  id: z.number().int(),
  policy_number: z.string(),
  status: z.enum(POLICY_STATUSES),
  product_type: z.enum(POLICY_PRODUCTS),
  owner_name: z.string(),
  owner_slug: z.string(),
  building_name: z.string(),
  unit_name: z.string(),
  unit_external_id: z.string().nullable(),
  renter: z.string().nullable(),
  coverage_amount_cents: z.number().int(),
  coverage_start_date: z.string(),
  coverage_end_date: z.string(),
  issued_at: z.string(),
});
export type ConsolePolicyRow = z.infer<typeof consolePolicyRow>;

export const consolePolicyDetail = consolePolicyRow.extend({
  unit_id: z.number().int(),
  product_version: z.string().nullable(),
  cadence: z.enum(["upfront", "monthly"]),
  premium_cents: z.number().int(),
  address: z.object({ line_one: z.string(), city: z.string(), state: z.string(), zip: z.string() }),
  address_locked: z.boolean(),
  renter_email: z.string().nullable(),
  source_prospect_id: z.string().nullable(),
  application_id: z.string().nullable(),
  pms: z.object({ type: z.string().nullable(), property_id: z.string().nullable(), unit_id: z.string().nullable(), resident_id: z.string().nullable() }),
  /** The owner's ceiling a revised coverage amount must stay within (null: none). */
  owner_max_coverage_amount_cents: z.number().int().nullable(),
  /** Every archive generation, newest first: each link keeps serving its own content. */
  documents: z.array(z.object({ url: z.string(), filename: z.string(), byte_size: z.number().int(), created_at: z.string() })),
  ...policyHistory.shape,
});
export type ConsolePolicyDetail = z.infer<typeof consolePolicyDetail>;

export const policySearchInput = z.object({
  /** Part of a policy number, a renter's name or email, or a `source_prospect_id`. */
  query: z.string().trim().max(200).optional(),
  status: z.enum(POLICY_STATUSES).optional(),
  /** The owner's slug (exact); an unknown slug is a 404, not an empty list. */
  owner: z.string().trim().min(1).max(200).optional(),
  product_type: z.enum(POLICY_PRODUCTS).optional(),
  /** Keyset paging: policies with a smaller id than this one. */
  before: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

const columns = {
  policy: policies,
  ownerName: propertyOwners.name,
  ownerSlug: propertyOwners.slug,
  ownerMax: propertyOwners.maxCoverageAmountCents,
  building: properties,
  unitName: units.name,
  unitExternalId: units.externalSystemId,
  firstName: prospects.firstName,
  lastName: prospects.lastName,
  email: prospects.email,
};

function joined(db: Tx) {
  return db
    .select(columns)
    .from(policies)
    .innerJoin(propertyOwners, eq(propertyOwners.id, policies.ownerId))
    .innerJoin(properties, eq(properties.id, policies.propertyId))
    .innerJoin(units, eq(units.id, policies.unitId))
    .leftJoin(prospects, eq(prospects.id, policies.prospectId));
}

type Joined = Awaited<ReturnType<ReturnType<typeof joined>["where"]>>[number];

const renterName = (row: Joined) => [row.firstName, row.lastName].filter(Boolean).join(" ") || row.email || null;

function rowOf(row: Joined): ConsolePolicyRow {
  const policy = row.policy;
  return {
    id: policy.id,
    policy_number: policy.policyNumber,
    status: policy.status,
    product_type: policy.productType,
    owner_name: row.ownerName,
    owner_slug: row.ownerSlug,
    building_name: row.building.buildingName,
    unit_name: row.unitName,
    unit_external_id: row.unitExternalId,
    renter: renterName(row),
    coverage_amount_cents: policy.coverageAmountCents,
    coverage_start_date: policy.coverageStartDate,
    coverage_end_date: policy.coverageEndDate,
    issued_at: policy.issuedAt.toISOString(),
  };
}

/** Newest first; `query` matches the policy number, the renter's name or email, or the partner's prospect id. */
export async function searchPolicies(db: Tx, input: z.input<typeof policySearchInput>): Promise<ConsolePolicyRow[]> {
  const { query, status, owner, product_type, before, limit } = policySearchInput.parse(input);
  const conditions: SQL[] = [];
  if (query) {
    const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = or(
      ilike(policies.policyNumber, like),
      ilike(policies.sourceProspectId, like),
      ilike(prospects.email, like),
      ilike(prospects.firstName, like),
      ilike(prospects.lastName, like),
    );
    if (match) conditions.push(match);
  }
  if (status) conditions.push(eq(policies.status, status));
  if (owner) {
    const [found] = await db.select({ id: propertyOwners.id }).from(propertyOwners).where(eq(propertyOwners.slug, owner));
    if (!found) throw errors.notFound(M.ownerNotFound(owner));
    conditions.push(eq(policies.ownerId, found.id));
  }
  if (product_type) conditions.push(eq(policies.productType, product_type));
  if (before) conditions.push(lt(policies.id, before));
  const rows = await joined(db)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(policies.id))
    .limit(limit);
  return rows.map(rowOf);
}

/** The page `admin_policy_url` points at; 404 for an id that is no policy. */
export async function policyForConsole(db: Tx, id: number): Promise<ConsolePolicyDetail> {
  const [row] = await joined(db).where(eq(policies.id, id));
  if (!row) throw errors.notFound(M.notFound);
  const policy = row.policy;
  const [documents, history] = await Promise.all([archivesOfPolicy(db, policy.id), historyOfPolicy(db, policy)]);
  return {
    ...rowOf(row),
    unit_id: policy.unitId,
    product_version: policy.productVersion,
    cadence: policy.cadence,
    premium_cents: policy.premiumCents,
    address: { line_one: row.building.addressLineOne, city: row.building.city, state: row.building.state, zip: row.building.zip },
    address_locked: row.building.addressLockedAt !== null,
    renter_email: row.email,
    source_prospect_id: policy.sourceProspectId,
    application_id: policy.applicationId === null ? null : `pa_${policy.applicationId}`,
    pms: { type: policy.pmsType, property_id: policy.pmsPropertyId, unit_id: policy.pmsUnitId, resident_id: policy.pmsResidentId },
    owner_max_coverage_amount_cents: row.ownerMax,
    documents: documents.map((d) => ({ url: d.url, filename: d.filename, byte_size: d.byteSize, created_at: d.createdAt.toISOString() })),
    ...history,
  };
}
