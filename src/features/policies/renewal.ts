import { RENEWAL_BLOCKING_REASONS as R } from "./messages";
import type { PolicyStatus } from "./policies.table";

export type RenewalFacts = {
  status: PolicyStatus;
  buildingActive: boolean;
  purchaseFlowEnabled: boolean;
  /** A delinquency of the policy is `active` (decisions §11 Billing); absent means none is open. */
  openDelinquency?: boolean;
};

export type RenewalEligibility = { status: "eligible" | "blocked"; reasons: string[] };

/**
 * spec Policy payload `renewal_eligibility_status` / `blocking_reasons` (always present; `[]` when
 * eligible). Blocked when the policy has ended (canceled or expired), its building left the roster,
 * or its owner's purchase flow is off; the reasons in that order. Pure. Open delinquencies
 * (decisions §11 Billing) join here when billing lands.
 */
export function renewalEligibility(facts: RenewalFacts): RenewalEligibility {
  const reasons: string[] = [];
  if (facts.status === "canceled") reasons.push(R.policyCanceled);
  if (facts.status === "expired") reasons.push(R.policyExpired);
  if (!facts.buildingActive) reasons.push(R.propertyInactive);
  if (!facts.purchaseFlowEnabled) reasons.push(R.purchaseFlowDisabled);
  // decisions §11 Billing: an open delinquency blocks renewal until it is settled.
  if (facts.openDelinquency) reasons.push(R.openDelinquency);
  return { status: reasons.length ? "blocked" : "eligible", reasons };
}
