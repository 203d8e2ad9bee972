/**
 * Payload builders for every event family (spec Events: payload tables). In webhook payloads an
 * optional field is omitted entirely, never sent as null.
 */
type Json = Record<string, unknown>;

/** Drops null and undefined values: spec Conventions, "an optional field is omitted entirely". */
export function omitEmpty<T extends Json>(object: T): Json {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null && value !== undefined));
}

const GUARANTEE = "renter_guarantee_insurance";

export type PolicyPayloadInput = {
  id: number;
  policyNumber: string;
  status: "active" | "upcoming" | "pending" | "expired" | "canceled";
  pmsType?: string | null;
  pmsPropertyId?: string | null;
  pmsUnitId?: string | null;
  pmsResidentId?: string | null;
  productType: "security_deposit_insurance" | "renter_guarantee_insurance" | "service_deposit";
  productVersion?: string | null;
  coverageAmountCents: number;
  coverageStartDate: string;
  coverageEndDate: string;
  adminPolicyUrl: string;
  sourceProspectId?: string | null;
  blockingReasons: string[];
  /** Only on policy.documents_updated, and only when an archive exists. */
  policyUrl?: string | null;
};

/** spec Policy payload (`insurance_policy`). */
export function policyPayload(policy: PolicyPayloadInput, event: string): Json {
  return omitEmpty({
    id: `policy_${policy.id}`,
    policy_number: policy.policyNumber,
    status: policy.status,
    pms_type: policy.pmsType,
    pms_property_id: policy.pmsPropertyId,
    pms_unit_id: policy.pmsUnitId,
    pms_resident_id: policy.pmsResidentId,
    product_type: policy.productType,
    product_version: policy.productType === GUARANTEE ? policy.productVersion : undefined,
    coverage_amount_cents: policy.coverageAmountCents,
    coverage_start_date: policy.coverageStartDate,
    coverage_end_date: policy.coverageEndDate,
    admin_policy_url: policy.adminPolicyUrl,
    source_prospect_id: policy.sourceProspectId,
    // Always present: `eligible` with [] or `blocked` with the reasons.
    renewal_eligibility_status: policy.blockingReasons.length ? "blocked" : "eligible",
    blocking_reasons: policy.blockingReasons,
    policy_url: event === "policy.documents_updated" ? policy.policyUrl : undefined,
  });
}

export type ApplicationPayloadInput = {
  id: number;
  status: "created" | "canceled";
  pmsType?: string | null;
  pmsPropertyId?: string | null;
  pmsUnitId?: string | null;
  pmsResidentId?: string | null;
  sourceProspectId?: string | null;
  guarantorCoverage: boolean;
  selectedProduct?: string | null;
  guaranteeProductVersion?: string | null;
};

/** spec Policy application payload (`policy_application`). */
export function applicationPayload(application: ApplicationPayloadInput): Json {
  const guarantee = application.guarantorCoverage && application.guaranteeProductVersion;
  return omitEmpty({
    id: `pa_${application.id}`,
    status: application.status,
    pms_type: application.pmsType,
    pms_property_id: application.pmsPropertyId,
    pms_unit_id: application.pmsUnitId,
    pms_resident_id: application.pmsResidentId,
    source_prospect_id: application.sourceProspectId,
    product_type: guarantee ? GUARANTEE : application.selectedProduct,
    product_version: guarantee ? application.guaranteeProductVersion : undefined,
  });
}

export type DelinquencyPayloadInput = {
  id: number;
  status: "active" | "resolved";
  amountCents: number;
  policyNumber: string;
  pmsPropertyCode?: string | null;
  pmsUnitCode?: string | null;
  pmsTenantCode?: string | null;
  sourceProspectId?: string | null;
};

/** spec Delinquency payload (`delinquency`): PMS identifiers use the `_code` suffix. */
export function delinquencyPayload(delinquency: DelinquencyPayloadInput): Json {
  return omitEmpty({
    id: `delinquency_${delinquency.id}`,
    status: delinquency.status,
    amount_cents: delinquency.amountCents,
    policy_number: delinquency.policyNumber,
    pms_property_code: delinquency.pmsPropertyCode,
    pms_unit_code: delinquency.pmsUnitCode,
    pms_tenant_code: delinquency.pmsTenantCode,
    source_prospect_id: delinquency.sourceProspectId,
  });
}

/** spec Move-out payload (`move_out`). */
export function moveOutPayload(moveOut: { id: number; externalId: string; status: string }): Json {
  return { move_out_id: moveOut.id, external_id: moveOut.externalId, status: moveOut.status };
}
