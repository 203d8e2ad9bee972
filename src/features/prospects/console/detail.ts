import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { applications } from "../../enrollment/applications/applications.table";
import { DELIVERY_STATUSES } from "../../webhooks/webhooks.table";
import { prospectContext } from "../context";
import { prospects } from "../prospects.table";
import { linksOf } from "../view";
import { fullName, PROSPECT_STATUSES } from "./search";

const reasons = z.array(z.string());

export const consoleProspectDetail = z.object({
  id: z.number().int(),
  public_id: z.string(),
  owner_slug: z.string(),
  owner_name: z.string(),
  source: z.string(),
  source_flow: z.enum(["embedded", "expedited"]),
  source_prospect_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.enum(PROSPECT_STATUSES),
  version: z.number().int(),
  guarantor_coverage: z.boolean(),
  lease_start_date: z.string().nullable(),
  lease_end_date: z.string().nullable(),
  monthly_rent_cents: z.number().int().nullable(),
  deposit_amount_cents: z.number().int().nullable(),
  building: z.object({ id: z.number().int(), name: z.string(), external_id: z.string().nullable() }).nullable(),
  unit: z.object({ id: z.number().int(), name: z.string(), external_id: z.string().nullable() }).nullable(),
  pms: z.object({ type: z.string().nullable(), property_id: z.string().nullable(), unit_id: z.string().nullable(), prospect_id: z.string().nullable() }),
  /** The eligibility job's decision: reasons per product (spec Prospect response fields); null until evaluated. */
  eligibility: z
    .object({
      eligible: z.boolean(),
      sdi: reasons,
      cd: reasons,
      rg: z.object({ status: z.enum(["eligible", "ineligible"]).optional(), reasons }).optional(),
    })
    .nullable(),
  effective_coverage_amount_cents: z.number().int().nullable(),
  percent_savings: z.number().nullable(),
  enrollment_url: z.string().nullable(),
  hosted_enrollment_url: z.string().nullable(),
  application_submitted: z.boolean(),
  /** The last underwriting outcome as stored (offers, prices, reasons); read-only. */
  underwriting: z.unknown(),
  latest_coverage: z.unknown(),
  applications: z.array(
    z.object({
      id: z.number().int(),
      public_id: z.string(),
      status: z.enum(["created", "canceled"]),
      product_type: z.string().nullable(),
      cadence: z.string().nullable(),
      step: z.string(),
      outcome: z.enum(["quoted", "declined"]).nullable(),
      blocked_reason: z.string().nullable(),
      submitted_at: z.string().nullable(),
      paid_at: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  deliveries: z.array(
    z.object({
      id: z.string(),
      event: z.string(),
      status: z.enum(DELIVERY_STATUSES),
      endpoint_id: z.string(),
      endpoint_name: z.string(),
      destination_url: z.string(),
      attempts: z.number().int(),
      last_attempted_at: z.string().nullable(),
      failure_reason: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
});

type DeliveryAbout = {
  id: string;
  event: string;
  status: (typeof DELIVERY_STATUSES)[number];
  endpoint_id: string;
  endpoint_name: string;
  destination_url: string;
  attempts: number;
  last_attempted_at: Date | string | null;
  failure_reason: string | null;
  created_at: Date | string;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The webhook deliveries about a prospect: its owner's events whose data names its
 * `source_prospect_id` (the prospect, application, policy and delinquency payloads carry it;
 * `prospect.created` carries it as `id`, spec Prospect payload), sent to endpoints of the
 * prospect's client or to providers. Newest first, at most 100.
 */
export async function deliveriesAboutProspect(db: Tx, ownerId: number, sourceProspectId: string, clientId: string): Promise<DeliveryAbout[]> {
  const rows = await db.execute<DeliveryAbout>(sql`
    select d.id, e.event, d.status, d.endpoint_id, ep.name as endpoint_name, ep.destination_url,
           d.attempt_number as attempts, d.last_attempted_at, d.last_attempt_failure_reason as failure_reason, d.created_at
    from webhook_events e
    join webhook_deliveries d on d.event_id = e.id
    join webhook_endpoints ep on ep.id = d.endpoint_id
    where e.owner_id = ${ownerId}
      and (ep.client_id is null or ep.client_id = ${clientId} or ep.provider_id is not null)
      and e.source_prospect_id = ${sourceProspectId}
    order by d.created_at desc, d.id desc
    limit 100`);
  return [...rows];
}

/** One prospect for the console (docs/decisions.md, "Console: UI kit, prospects, overview, audit"): state, eligibility, links, applications, deliveries. */
export async function prospectForConsole(db: Tx, id: number): Promise<z.infer<typeof consoleProspectDetail>> {
  const [found] = await prospectContext(db).where(eq(prospects.id, id));
  if (!found) throw errors.notFound("Prospect not found");
  const { prospect, owner, source, property: building, unit } = found;
  const links = linksOf(prospect, owner, source);
  const apps = await db.select().from(applications).where(eq(applications.prospectId, prospect.id)).orderBy(desc(applications.id));
  const deliveries = await deliveriesAboutProspect(db, owner.id, prospect.sourceProspectId, source.clientId);
  const eligibility = prospect.eligibility;
  return {
    id: prospect.id,
    public_id: `tpp_${prospect.id}`,
    owner_slug: owner.slug,
    owner_name: owner.name,
    source: prospect.source,
    source_flow: source.flow,
    source_prospect_id: prospect.sourceProspectId,
    email: prospect.email,
    name: fullName(prospect.firstName, prospect.lastName),
    phone: prospect.phone,
    status: prospect.status,
    version: prospect.version,
    guarantor_coverage: prospect.guarantorCoverage,
    lease_start_date: prospect.leaseStartDate,
    lease_end_date: prospect.leaseEndDate,
    monthly_rent_cents: prospect.monthlyRentCents,
    deposit_amount_cents: prospect.depositAmountCents,
    building: building ? { id: building.id, name: building.buildingName, external_id: building.externalSystemId } : null,
    unit: unit ? { id: unit.id, name: unit.name, external_id: unit.externalSystemId } : null,
    pms: { type: prospect.pmsType, property_id: prospect.pmsPropertyId, unit_id: prospect.pmsUnitId, prospect_id: prospect.pmsProspectId },
    eligibility: eligibility
      ? { eligible: eligibility.eligible, sdi: eligibility.sdi ?? [], cd: eligibility.cd ?? [], ...(eligibility.rg ? { rg: eligibility.rg } : {}) }
      : null,
    effective_coverage_amount_cents: prospect.effectiveCoverageAmountCents,
    percent_savings: prospect.percentSavings,
    enrollment_url: links.enrollment_url,
    hosted_enrollment_url: links.hosted_enrollment_url,
    application_submitted: prospect.applicationSubmitted,
    underwriting: prospect.underwriting ?? null,
    latest_coverage: prospect.latestCoverage ?? null,
    applications: apps.map((app) => ({
      id: app.id,
      public_id: `pa_${app.id}`,
      status: app.status,
      product_type: app.productType,
      cadence: app.cadence,
      step: app.step,
      outcome: app.outcome,
      blocked_reason: app.blockedReason,
      submitted_at: iso(app.submittedAt),
      paid_at: iso(app.paidAt),
      created_at: app.createdAt.toISOString(),
    })),
    deliveries: deliveries.map((d) => ({
      ...d,
      attempts: Number(d.attempts),
      last_attempted_at: iso(d.last_attempted_at),
      created_at: iso(d.created_at) as string,
    })),
    created_at: prospect.createdAt.toISOString(),
    updated_at: prospect.updatedAt.toISOString(),
  };
}
