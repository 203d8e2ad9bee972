import type { Tx } from "../../server/db/client";
import type { Owner } from "../owners/service";
import { emitEvent } from "../webhooks/emit";
import { omitEmpty } from "../webhooks/payloads";
import type { Prospect } from "./prospects.table";
import type { Source } from "./sources.table";
import { linksOf } from "./view";

type ProspectEvent = "prospect.created" | "prospect.ready" | "prospect.incomplete";

/**
 * spec Prospect payload (`third_party_prospect`). On `prospect.created` the only field is `id`, and it
 * is the partner's `source_prospect_id`. Elsewhere optional fields are omitted, URLs are null unless
 * eligible (always null on `prospect.incomplete`), `pms_type` is carried only for `pms_one`, and the
 * guarantee keys follow the same rules as the prospect resource. No deposit-product reasons.
 */
export function prospectPayload(event: ProspectEvent, prospect: Prospect, owner: Owner, source: Source): Record<string, unknown> {
  if (event === "prospect.created") return { id: prospect.sourceProspectId };
  const links = event === "prospect.incomplete" ? { enrollment_url: null, hosted_enrollment_url: null } : linksOf(prospect, owner, source);
  const rg = prospect.eligibility?.rg;
  return {
    ...omitEmpty({
      id: `tpp_${prospect.id}`,
      source_prospect_id: prospect.sourceProspectId,
      status: prospect.status,
      pms_type: prospect.pmsType === "pms_one" ? prospect.pmsType : undefined,
      pms_property_id: prospect.pmsPropertyId,
      pms_unit_id: prospect.pmsUnitId,
      pms_prospect_id: prospect.pmsProspectId,
    }),
    ...links,
    guarantor_coverage: prospect.guarantorCoverage,
    ...(prospect.guarantorCoverage && rg?.status ? { rg_eligibility_status: rg.status } : {}),
    ...(prospect.guarantorCoverage ? { rg_ineligibility_reasons: rg?.reasons ?? [] } : {}),
  };
}

export async function emitProspectEvent(tx: Tx, event: ProspectEvent, prospect: Prospect, owner: Owner, source: Source): Promise<void> {
  const data = prospectPayload(event, prospect, owner, source);
  // A prospect is the record of its source's client: only that partner's endpoints hear of it; and
  // providers covering single buildings hear of it when it is resolved to one of theirs (spec Delivery mechanics 6).
  await emitEvent(tx, { ownerId: owner.id, ownerSlug: owner.slug, event, data, clientId: source.clientId, building: { id: prospect.propertyId } });
}
