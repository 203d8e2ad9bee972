import { describe, expect, it } from "vitest";
import { applicationPayload, delinquencyPayload, moveOutPayload, policyPayload } from "./payloads";

const policy = {
  id: 12,
  policyNumber: "SDI-0012",
  status: "active" as const,
  pmsType: "pms_one",
  pmsPropertyId: "P1",
  pmsUnitId: null,
  pmsResidentId: undefined,
  productType: "security_deposit_insurance" as const,
  productVersion: "2025.12.01",
  coverageAmountCents: 150000,
  coverageStartDate: "2026-12-01",
  coverageEndDate: "2027-11-30",
  adminPolicyUrl: "https://admin.example.com/policies/991",
  sourceProspectId: null,
  blockingReasons: [],
  policyUrl: "https://files.example.com/a.zip",
};

describe("payload builders (spec Events, payload tables)", () => {
  it("omits optional fields instead of sending null, keeps the always-present ones", () => {
    const payload = policyPayload(policy, "policy.created");
    expect(payload).toEqual({
      id: "policy_12",
      policy_number: "SDI-0012",
      status: "active",
      pms_type: "pms_one",
      pms_property_id: "P1",
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 150000,
      coverage_start_date: "2026-12-01",
      coverage_end_date: "2027-11-30",
      admin_policy_url: "https://admin.example.com/policies/991",
      renewal_eligibility_status: "eligible",
      blocking_reasons: [],
    });
    expect(Object.values(payload)).not.toContain(null);
  });

  it("carries product_version only for the guarantee product and policy_url only on documents_updated", () => {
    const guarantee = policyPayload({ ...policy, productType: "renter_guarantee_insurance", blockingReasons: ["Lease ending"] }, "policy.documents_updated");
    expect(guarantee).toMatchObject({
      product_version: "2025.12.01",
      policy_url: "https://files.example.com/a.zip",
      renewal_eligibility_status: "blocked",
      blocking_reasons: ["Lease ending"],
    });
    expect(policyPayload({ ...policy, policyUrl: null }, "policy.documents_updated")).not.toHaveProperty("policy_url");
  });

  it("names the application's product: guarantee with a version, else the selected product, else nothing", () => {
    expect(
      applicationPayload({ id: 3, status: "created", guarantorCoverage: true, guaranteeProductVersion: "2025.12.01", selectedProduct: "cash_deposit" }),
    ).toEqual({
      id: "pa_3",
      status: "created",
      product_type: "renter_guarantee_insurance",
      product_version: "2025.12.01",
    });
    expect(
      applicationPayload({ id: 4, status: "created", guarantorCoverage: false, selectedProduct: "external_cash_deposit", sourceProspectId: "sp-4" }),
    ).toEqual({
      id: "pa_4",
      status: "created",
      source_prospect_id: "sp-4",
      product_type: "external_cash_deposit",
    });
    expect(applicationPayload({ id: 5, status: "canceled", guarantorCoverage: false })).toEqual({ id: "pa_5", status: "canceled" });
  });

  it("uses the _code suffix for delinquency PMS identifiers, and the plain integer for move-outs", () => {
    expect(delinquencyPayload({ id: 8, status: "active", amountCents: 4500, policyNumber: "SDI-1", pmsTenantCode: "T-9" })).toEqual({
      id: "delinquency_8",
      status: "active",
      amount_cents: 4500,
      policy_number: "SDI-1",
      pms_tenant_code: "T-9",
    });
    expect(moveOutPayload({ id: 42, externalId: "mo-42", status: "initiated" })).toEqual({ move_out_id: 42, external_id: "mo-42", status: "initiated" });
  });
});
