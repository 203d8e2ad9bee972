import { RENEWAL_BLOCKING_REASONS as R } from "./messages";
import type { PolicyProduct, PolicyStatus } from "./policies.table";

/** What renewal eligibility reads, all of it stored (docs/policies.md, Renewal eligibility). */
export type RenewalFacts = {
  status: PolicyStatus;
  productType: PolicyProduct;
  coverageAmountCents: number;
  buildingActive: boolean;
  /** The building offers the guarantee product (`guarantee_enabled`). */
  guaranteeEnabled: boolean;
  purchaseFlowEnabled: boolean;
  /** A delinquency of the policy is `active` (decisions §11 Billing). */
  openDelinquency: boolean;
  /** The owner's coverage ceiling; null: none. */
  maxCoverageAmountCents: number | null;
};

export type RenewalEligibility = { status: "eligible" | "blocked"; reasons: string[] };

/**
 * One renewal rule: the reason it blocks with and when it does. The list's order is the order of
 * `blocking_reasons`: the policy's own state first, then its money, then where it is and who sells it.
 */
type RenewalRule = { reason: string; blocks: (facts: RenewalFacts) => boolean };

export const RENEWAL_RULES: readonly RenewalRule[] = [
  { reason: R.policyCanceled, blocks: (f) => f.status === "canceled" },
  { reason: R.policyExpired, blocks: (f) => f.status === "expired" },
  // decisions §11 Billing: an open delinquency blocks renewal until it is settled.
  { reason: R.openDelinquency, blocks: (f) => f.openDelinquency },
  { reason: R.propertyInactive, blocks: (f) => !f.buildingActive },
  { reason: R.purchaseFlowDisabled, blocks: (f) => !f.purchaseFlowEnabled },
  // A guarantee cannot renew where the guarantee is no longer offered (the building turned it off).
  { reason: R.guaranteeNotEnabled, blocks: (f) => f.productType === "renter_guarantee_insurance" && !f.guaranteeEnabled },
  // Deposit coverage above the owner's current ceiling would not be offered again at that amount.
  {
    reason: R.coverageAboveMaximum,
    blocks: (f) => f.productType === "security_deposit_insurance" && f.maxCoverageAmountCents !== null && f.coverageAmountCents > f.maxCoverageAmountCents,
  },
];

/**
 * spec Policy payload `renewal_eligibility_status` / `blocking_reasons` (always present; `[]` when
 * eligible): every rule that blocks, in the rules' order (docs/policies.md). Pure.
 */
export function renewalEligibility(facts: RenewalFacts): RenewalEligibility {
  const reasons = RENEWAL_RULES.filter((rule) => rule.blocks(facts)).map((rule) => rule.reason);
  return { status: reasons.length ? "blocked" : "eligible", reasons };
}
