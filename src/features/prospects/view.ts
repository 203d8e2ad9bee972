import type { Owner } from "../owners/service";
import { enrollmentLinks } from "./enrollment-links";
import type { sources } from "./sources.table";
import type { Prospect } from "./tables";

type Source = typeof sources.$inferSelect;

export function linksOf(prospect: Prospect, owner: Owner, source: Source) {
  const eligible = prospect.status === "ready" && prospect.eligibility?.eligible === true;
  return enrollmentLinks(
    eligible,
    { ownerSlug: owner.slug, source: prospect.source, sourceProspectId: prospect.sourceProspectId, email: prospect.email ?? "" },
    source.flow,
  );
}

/**
 * spec Prospect, Response fields. SSN, education level, citizenship and terms_accepted_at are never
 * echoed. Guarantee keys appear only on guarantor-coverage prospects; deposit-product reasons only
 * when there are some.
 */
export function prospectView(prospect: Prospect, owner: Owner, source: Source) {
  const decision = prospect.eligibility;
  const guarantee = prospect.guarantorCoverage;
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
    ...linksOf(prospect, owner, source),
    offered_products: [] as Array<Record<string, unknown>>,
    application_submitted: prospect.applicationSubmitted,
    latest_coverage: prospect.latestCoverage,
    guarantor_coverage: guarantee,
    ...(guarantee && decision?.rg?.status ? { rg_eligibility_status: decision.rg.status } : {}),
    ...(guarantee ? { rg_ineligibility_reasons: decision?.rg?.reasons ?? [] } : {}),
    ...(decision?.sdi.length ? { sdi_ineligibility_reasons: decision.sdi } : {}),
    ...(decision?.cd.length ? { cd_ineligibility_reasons: decision.cd } : {}),
  };
}
