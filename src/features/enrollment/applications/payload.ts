import type { Prospect } from "../../prospects/prospects.table";
import { applicationPayload } from "../../webhooks/payloads";
import type { Application } from "./applications.table";

/**
 * spec Policy application payload (`policy_application`): `pa_<id>`, the record status (never the
 * outcome), the prospect's PMS identifiers, `source_prospect_id` (every application comes from a
 * partner's prospect), and `product_type` omitted until chosen or preselected; the guarantee product
 * is named, with its version, once underwriting has set one (webhooks/payloads.ts `applicationPayload`).
 * The prospect's `pms_prospect_id` is the renter's PMS resident id (docs/decisions.md, Policies).
 */
export function policyApplicationPayload(application: Application, prospect: Prospect): Record<string, unknown> {
  return applicationPayload({
    id: application.id,
    status: application.status,
    pmsType: prospect.pmsType,
    pmsPropertyId: prospect.pmsPropertyId,
    pmsUnitId: prospect.pmsUnitId,
    pmsResidentId: prospect.pmsProspectId,
    sourceProspectId: prospect.sourceProspectId,
    guarantorCoverage: prospect.guarantorCoverage,
    selectedProduct: application.productType === "renter_guarantee_insurance" ? null : application.productType,
    guaranteeProductVersion: application.productType === "renter_guarantee_insurance" ? application.productVersion : null,
  });
}
