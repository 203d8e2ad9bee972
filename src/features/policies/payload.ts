import { getConfig } from "../../server/config";
import { policyPayload } from "../webhooks/payloads";
import type { Policy } from "./policies.table";
import { type RenewalFacts, renewalEligibility } from "./renewal";

/** decisions §11 `admin_policy_url`: the console page of the policy, by its internal numeric id. */
export function adminPolicyUrl(policyId: number, publicBaseUrl = getConfig().publicBaseUrl): string {
  return `${publicBaseUrl}/console/policies/${policyId}`;
}

/** What the payload reads beside the policy row: its building and owner, for renewal eligibility. */
export type PolicyContext = Omit<RenewalFacts, "status" | "productType" | "coverageAmountCents"> & { publicBaseUrl?: string };

/**
 * spec Policy payload (`insurance_policy`), built from a policy row. The field rules (prefixed id,
 * optional fields omitted, `product_version` only for the guarantee product, renewal fields always
 * present) live in `policyPayload` (webhooks/payloads.ts); `policy_url` is given only for
 * `policy.documents_updated`, when an archive exists.
 */
export function insurancePolicyPayload(policy: Policy, context: PolicyContext, options: { policyUrl?: string } = {}): Record<string, unknown> {
  const { publicBaseUrl: _url, ...facts } = context;
  const renewal = renewalEligibility({ status: policy.status, productType: policy.productType, coverageAmountCents: policy.coverageAmountCents, ...facts });
  return policyPayload(
    {
      id: policy.id,
      policyNumber: policy.policyNumber,
      status: policy.status,
      pmsType: policy.pmsType,
      pmsPropertyId: policy.pmsPropertyId,
      pmsUnitId: policy.pmsUnitId,
      pmsResidentId: policy.pmsResidentId,
      productType: policy.productType,
      productVersion: policy.productVersion,
      coverageAmountCents: policy.coverageAmountCents,
      coverageStartDate: policy.coverageStartDate,
      coverageEndDate: policy.coverageEndDate,
      adminPolicyUrl: adminPolicyUrl(policy.id, context.publicBaseUrl),
      sourceProspectId: policy.sourceProspectId,
      blockingReasons: renewal.reasons,
      policyUrl: options.policyUrl,
    },
    options.policyUrl ? "policy.documents_updated" : "policy.created",
  );
}
