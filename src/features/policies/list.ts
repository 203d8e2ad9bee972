import { asc, eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { type Policy, policies } from "./policies.table";

/** One line of `policy list` (decisions §4); `source_prospect_id` omitted when the policy has none. */
export type PolicyListEntry = Pick<Policy, "id"> & {
  policy_number: string;
  status: Policy["status"];
  product_type: Policy["productType"];
  coverage_amount_cents: number;
  coverage_start_date: string;
  coverage_end_date: string;
  source_prospect_id?: string;
};

export function policyListEntry(policy: Policy): PolicyListEntry {
  return {
    id: policy.id,
    policy_number: policy.policyNumber,
    status: policy.status,
    product_type: policy.productType,
    coverage_amount_cents: policy.coverageAmountCents,
    coverage_start_date: policy.coverageStartDate,
    coverage_end_date: policy.coverageEndDate,
    ...(policy.sourceProspectId === null ? {} : { source_prospect_id: policy.sourceProspectId }),
  };
}

/** The owner's policies, oldest first (decisions §4 `policy list`; the console lists them the same way). */
export async function listPoliciesOfOwner(db: Tx, ownerId: number): Promise<{ policies: PolicyListEntry[] }> {
  const rows = await db.select().from(policies).where(eq(policies.ownerId, ownerId)).orderBy(asc(policies.id));
  return { policies: rows.map(policyListEntry) };
}
