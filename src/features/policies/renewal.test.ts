import { describe, expect, it } from "vitest";
import { RENEWAL_BLOCKING_REASONS as R } from "./messages";
import { type RenewalFacts, renewalEligibility } from "./renewal";

const live: RenewalFacts = {
  status: "active",
  productType: "security_deposit_insurance",
  coverageAmountCents: 150000,
  buildingActive: true,
  guaranteeEnabled: false,
  purchaseFlowEnabled: true,
  maxCoverageAmountCents: null,
  openDelinquency: false,
};

describe("renewalEligibility (docs/policies.md, Renewal eligibility)", () => {
  it("is eligible with no reasons for a live policy on an active building of an open owner", () => {
    expect(renewalEligibility(live)).toEqual({ status: "eligible", reasons: [] });
    expect(renewalEligibility({ ...live, status: "upcoming" })).toEqual({ status: "eligible", reasons: [] });
    expect(renewalEligibility({ ...live, status: "pending" })).toEqual({ status: "eligible", reasons: [] });
  });

  it("blocks an ended policy with its own reason", () => {
    expect(renewalEligibility({ ...live, status: "expired" })).toEqual({ status: "blocked", reasons: ["Policy is expired"] });
    expect(renewalEligibility({ ...live, status: "canceled" })).toEqual({ status: "blocked", reasons: ["Policy is canceled"] });
  });

  it("blocks an inactive building and an owner whose purchase flow is off, with eligibility's strings", () => {
    expect(renewalEligibility({ ...live, buildingActive: false }).reasons).toEqual(["Property must be active"]);
    expect(renewalEligibility({ ...live, purchaseFlowEnabled: false }).reasons).toEqual(["Property owner must have the purchase flow enabled"]);
  });

  it("blocks a guarantee where the building no longer offers it, but not deposit insurance there", () => {
    const guarantee = { ...live, productType: "renter_guarantee_insurance" as const };
    expect(renewalEligibility(guarantee).reasons).toEqual(["Guarantor coverage must be enabled for the property"]);
    expect(renewalEligibility({ ...guarantee, guaranteeEnabled: true }).reasons).toEqual([]);
    expect(renewalEligibility({ ...live, guaranteeEnabled: false }).reasons).toEqual([]);
  });

  it("blocks deposit coverage above the owner's ceiling; at the ceiling, without one, or for the guarantee it is fine", () => {
    expect(renewalEligibility({ ...live, maxCoverageAmountCents: 149999 }).reasons).toEqual([
      "Coverage amount must not exceed the property owner's maximum coverage",
    ]);
    expect(renewalEligibility({ ...live, maxCoverageAmountCents: 150000 }).reasons).toEqual([]);
    expect(renewalEligibility({ ...live, productType: "renter_guarantee_insurance", guaranteeEnabled: true, maxCoverageAmountCents: 1 }).reasons).toEqual([]);
  });

  it("lists every blocking reason in the documented order", () => {
    const all = renewalEligibility({
      status: "canceled",
      productType: "renter_guarantee_insurance",
      coverageAmountCents: 500000,
      buildingActive: false,
      guaranteeEnabled: false,
      purchaseFlowEnabled: false,
      maxCoverageAmountCents: 1,
      openDelinquency: true,
    });
    expect(all).toEqual({
      status: "blocked",
      reasons: [R.policyCanceled, R.openDelinquency, R.propertyInactive, R.purchaseFlowDisabled, R.guaranteeNotEnabled],
    });
    const deposit = renewalEligibility({ ...live, status: "expired", buildingActive: false, purchaseFlowEnabled: false, maxCoverageAmountCents: 1 });
    expect(deposit.reasons).toEqual([R.policyExpired, R.propertyInactive, R.purchaseFlowDisabled, R.coverageAboveMaximum]);
  });
});
