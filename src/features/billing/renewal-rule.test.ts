import { describe, expect, it } from "vitest";
import { RENEWAL_BLOCKING_REASONS as R } from "../policies/messages";
import { renewalEligibility } from "../policies/renewal";

describe("renewal eligibility: the open-delinquency rule (decisions §11 Billing)", () => {
  const open = {
    status: "active" as const,
    productType: "security_deposit_insurance" as const,
    coverageAmountCents: 100_000,
    buildingActive: true,
    guaranteeEnabled: true,
    purchaseFlowEnabled: true,
    maxCoverageAmountCents: null,
    openDelinquency: false,
  };

  it("blocks with a stable reason while a delinquency is open, and not otherwise", () => {
    expect(R.openDelinquency).toBe("Policy has an open delinquency");
    expect(renewalEligibility({ ...open, openDelinquency: true })).toEqual({ status: "blocked", reasons: [R.openDelinquency] });
    expect(renewalEligibility({ ...open, openDelinquency: false })).toEqual({ status: "eligible", reasons: [] });
  });

  it("takes its place among the other reasons: after the policy's own state, before the building's (docs/policies.md)", () => {
    expect(renewalEligibility({ ...open, status: "expired", buildingActive: false, openDelinquency: true }).reasons).toEqual([
      R.policyExpired,
      R.openDelinquency,
      R.propertyInactive,
    ]);
  });
});
