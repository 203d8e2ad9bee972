import type { Owner } from "../owners/service";
import { enrollmentLinks } from "./enrollment-links";
import type { Prospect } from "./prospects.table";
import type { sources } from "./sources.table";
import { mergeReasons, underwritingFields } from "./underwriting-fields";

type Source = typeof sources.$inferSelect;

export function linksOf(prospect: Prospect, owner: Owner, source: Source) {
  // spec Prospect rules 2: underwriting that declined every applicable product nulls both URLs too.
  const eligible = prospect.status === "ready" && prospect.eligibility?.eligible === true && prospect.underwriting?.status !== "declined";
  return enrollmentLinks(
    eligible,
    { ownerSlug: owner.slug, source: prospect.source, sourceProspectId: prospect.sourceProspectId, email: prospect.email ?? "" },
    source.flow,
  );
}

/** The offered products and underwriting's reasons (decisions §10), their links on the source's flow. */
function underwritingOf(prospect: Prospect, owner: Owner, source: Source, links: ReturnType<typeof linksOf>) {
  const parts = { flow: source.flow, ownerSlug: owner.slug, source: prospect.source, sourceProspectId: prospect.sourceProspectId, email: prospect.email ?? "" };
  return underwritingFields(prospect, links.enrollment_url === null ? null : parts);
}

/**
 * spec Prospect, Response fields. SSN, education level, citizenship and terms_accepted_at are never
 * echoed. Guarantee keys appear only on guarantor-coverage prospects; deposit-product reasons only
 * when there are some.
 */
export function prospectView(prospect: Prospect, owner: Owner, source: Source) {
  const decision = prospect.eligibility;
  const guarantee = prospect.guarantorCoverage;
  const links = linksOf(prospect, owner, source);
  const underwriting = underwritingOf(prospect, owner, source, links);
  const sdi = mergeReasons(decision?.sdi, underwriting.sdiReasons);
  const cd = mergeReasons(decision?.cd, underwriting.cdReasons);
  const rg = mergeReasons(decision?.rg?.reasons, underwriting.rgReasons);
  // A guarantee declined by underwriting is ineligible whatever eligibility said before it.
  const rgStatus = guarantee && underwriting.declined ? "ineligible" : decision?.rg?.status;
  return {
    id: prospect.id,
    source: prospect.source,
    source_prospect_id: prospect.sourceProspectId,
    email: prospect.email,
    phone: prospect.phone,
    first_name: prospect.firstName,
    last_name: prospect.lastName,
    birthdate: prospect.birthdate,
    lease_start_date: prospect.leaseStartDate,
    lease_end_date: prospect.leaseEndDate,
    screening_result: prospect.screeningResult,
    monthly_rent_cents: prospect.monthlyRentCents,
    deposit_amount_cents: prospect.depositAmountCents,
    employment_status: prospect.employmentStatus,
    yearly_income: prospect.yearlyIncome,
    has_ssn: prospect.hasSsn,
    pms_type: prospect.pmsType,
    pms_property_id: prospect.pmsPropertyId,
    pms_unit_id: prospect.pmsUnitId,
    pms_prospect_id: prospect.pmsProspectId,
    status: prospect.status,
    effective_coverage_amount_cents: prospect.effectiveCoverageAmountCents,
    // Empty until the renter is underwritten in the enrollment flow; always empty on a guarantee prospect.
    percent_savings: guarantee ? null : prospect.percentSavings,
    ...links,
    // Empty until underwriting (docs/underwriting.md "On the prospect"); always empty on a guarantee prospect.
    offered_products: underwriting.offeredProducts,
    application_submitted: prospect.applicationSubmitted,
    latest_coverage: prospect.latestCoverage,
    guarantor_coverage: guarantee,
    ...(guarantee && rgStatus ? { rg_eligibility_status: rgStatus } : {}),
    ...(guarantee ? { rg_ineligibility_reasons: rg } : {}),
    ...(sdi.length ? { sdi_ineligibility_reasons: sdi } : {}),
    ...(cd.length ? { cd_ineligibility_reasons: cd } : {}),
  };
}
