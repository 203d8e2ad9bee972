import type { Policy } from "./policies.table";

/** The renter's coverage as the prospect shows it (decisions §10 "Prospect fields come alive"). */
export function latestCoverageOfPolicy(policy: Policy) {
  return { type: policy.productType, coverage_amount_cents: policy.coverageAmountCents, policy_number: policy.policyNumber, status: policy.status };
}
