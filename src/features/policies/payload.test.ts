import { describe, expect, it } from "vitest";
import { RENEWAL_BLOCKING_REASONS as R } from "./messages";
import { adminPolicyUrl, insurancePolicyPayload } from "./payload";
import type { Policy } from "./policies.table";

const policy: Policy = {
  id: 41,
  policyNumber: "PIS-2026-000041",
  applicationId: 7,
  prospectId: 9,
  ownerId: 1,
  propertyId: 2,
  unitId: 3,
  status: "active",
  productType: "security_deposit_insurance",
  productVersion: null,
  coverageAmountCents: 150000,
  coverageStartDate: "2026-12-01",
  coverageEndDate: "2027-11-30",
  premiumCents: 22500,
  cadence: "upfront",
  sourceProspectId: "sp-9",
  pmsType: null,
  pmsPropertyId: null,
  pmsUnitId: null,
  pmsResidentId: null,
  issuedAt: new Date("2026-11-24T10:00:00Z"),
  createdAt: new Date("2026-11-24T10:00:00Z"),
  updatedAt: new Date("2026-11-24T10:00:00Z"),
};
const open = {
  buildingActive: true,
  guaranteeEnabled: true,
  purchaseFlowEnabled: true,
  maxCoverageAmountCents: null,
  openDelinquency: false,
  publicBaseUrl: "https://pis.example.com",
};

describe("insurancePolicyPayload (spec Policy payload)", () => {
  it("answers exactly the table's fields for a plain deposit-insurance policy, nothing null", () => {
    expect(insurancePolicyPayload(policy, open)).toEqual({
      id: "policy_41",
      policy_number: "PIS-2026-000041",
      status: "active",
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 150000,
      coverage_start_date: "2026-12-01",
      coverage_end_date: "2027-11-30",
      admin_policy_url: "https://pis.example.com/console/policies/41",
      source_prospect_id: "sp-9",
      renewal_eligibility_status: "eligible",
      blocking_reasons: [],
    });
  });

  it("omits source_prospect_id when the policy did not come from a partner's prospect, and PMS ids when absent", () => {
    const payload = insurancePolicyPayload({ ...policy, sourceProspectId: null }, open);
    expect(payload).not.toHaveProperty("source_prospect_id");
    expect(payload).not.toHaveProperty("pms_type");
    expect(payload).not.toHaveProperty("pms_resident_id");
    expect(Object.values(payload)).not.toContain(null);
  });

  it("carries the PMS identifiers as stored (pms_type any of the two)", () => {
    const payload = insurancePolicyPayload({ ...policy, pmsType: "pms_two", pmsPropertyId: "P", pmsUnitId: "U", pmsResidentId: "R" }, open);
    expect(payload).toMatchObject({ pms_type: "pms_two", pms_property_id: "P", pms_unit_id: "U", pms_resident_id: "R" });
  });

  it("carries product_version only for the guarantee product", () => {
    expect(insurancePolicyPayload({ ...policy, productType: "renter_guarantee_insurance", productVersion: "2025.12.01" }, open)).toMatchObject({
      product_type: "renter_guarantee_insurance",
      product_version: "2025.12.01",
    });
    expect(insurancePolicyPayload({ ...policy, productVersion: "2025.12.01" }, open)).not.toHaveProperty("product_version");
  });

  it("carries policy_url only when given (documents_updated)", () => {
    expect(insurancePolicyPayload(policy, open)).not.toHaveProperty("policy_url");
    expect(insurancePolicyPayload(policy, open, { policyUrl: "https://pis.example.com/documents/k.zip" })).toMatchObject({
      policy_url: "https://pis.example.com/documents/k.zip",
    });
  });

  it("reports a blocked renewal with its reasons, always present", () => {
    const payload = insurancePolicyPayload({ ...policy, status: "canceled" }, { ...open, buildingActive: false });
    expect(payload).toMatchObject({ status: "canceled", renewal_eligibility_status: "blocked", blocking_reasons: [R.policyCanceled, R.propertyInactive] });
  });

  it("builds admin_policy_url from the numeric id", () => {
    expect(adminPolicyUrl(5, "http://localhost:3000")).toBe("http://localhost:3000/console/policies/5");
  });
});
