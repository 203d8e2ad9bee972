import { describe, expect, it } from "vitest";
import { RENEWAL_BLOCKING_REASONS as R } from "../policies/messages";
import { renewalEligibility } from "../policies/renewal";

describe("renewal eligibility: the open-delinquency rule (decisions §11 Billing)", () => {
  const open = { status: "active" as const, buildingActive: true, purchaseFlowEnabled: true };

  it("blocks with a stable reason while a delinquency is open, and not otherwise", () => {
    expect(R.openDelinquency).toBe("Policy has an open delinquency");
    expect(renewalEligibility({ ...open, openDelinquency: true })).toEqual({ status: "blocked", reasons: [R.openDelinquency] });
    expect(renewalEligibility({ ...open, openDelinquency: false })).toEqual({ status: "eligible", reasons: [] });
  });

  it("joins the other reasons, after them", () => {
    expect(renewalEligibility({ ...open, buildingActive: false, openDelinquency: true }).reasons).toEqual([R.propertyInactive, R.openDelinquency]);
  });
});
