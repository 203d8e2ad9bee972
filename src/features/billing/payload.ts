import type { Policy } from "../policies/policies.table";
import { delinquencyPayload } from "../webhooks/payloads";
import type { Delinquency } from "./billing.table";

/**
 * spec Delinquency payload (`delinquency`) from a delinquency and its policy: `delinquency_` id,
 * `amount_cents` outstanding, the policy's PMS identifiers under the `_code` names (property,
 * unit, and the matched resident as the tenant), `source_prospect_id` omitted when the policy did
 * not come from a prospect the partner created. The field rules live in `delinquencyPayload`.
 */
export function delinquencyData(
  delinquency: Pick<Delinquency, "id" | "status" | "amountCents">,
  policy: Pick<Policy, "policyNumber" | "pmsPropertyId" | "pmsUnitId" | "pmsResidentId" | "sourceProspectId">,
): Record<string, unknown> {
  return delinquencyPayload({
    id: delinquency.id,
    status: delinquency.status,
    amountCents: delinquency.amountCents,
    policyNumber: policy.policyNumber,
    pmsPropertyCode: policy.pmsPropertyId,
    pmsUnitCode: policy.pmsUnitId,
    pmsTenantCode: policy.pmsResidentId,
    sourceProspectId: policy.sourceProspectId,
  });
}
