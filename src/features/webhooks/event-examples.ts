import { getConfig } from "../../server/config";
import { EVENT_CATALOG, type EventName } from "./catalog";
import { applicationPayload, delinquencyPayload, moveOutPayload, policyPayload } from "./payloads";

type Json = Record<string, unknown>;

/**
 * The one place holding an example payload per catalog event (docs/decisions.md, "Partner developer:
 * test events"): the test route sends them, and the docs page names them. Policy, application,
 * delinquency and move-out examples go through the very builders real events use (`payloads.ts`), so
 * they keep the shape of the real thing; the prospect examples follow the rules of
 * `prospects/events.ts` (spec Prospect payload), which this feature cannot import (prospects emits
 * through webhooks). Values are examples: ids and numbers name no record of the service.
 */
const SOURCE_PROSPECT_ID = "example-prospect-1001";
const POLICY_NUMBER = "EX-2026-000123";

const PMS = { pmsType: "pms_one", pmsPropertyId: "example-property-42", pmsUnitId: "example-unit-7B" };

/** spec Prospect payload: `prospect.created` carries only `id`, the partner's `source_prospect_id`. */
function prospectExample(event: EventName, ownerSlug: string): Json {
  if (event === "prospect.created") return { id: SOURCE_PROSPECT_ID };
  const ready = event === "prospect.ready";
  const query = new URLSearchParams({ email: "renter@example.com", sig: "example-signature" });
  const link = (flow: string) => `${getConfig().enrollmentBaseUrl}/${flow}/${encodeURIComponent(ownerSlug)}/example_source/${SOURCE_PROSPECT_ID}?${query}`;
  return {
    id: "tpp_1001",
    source_prospect_id: SOURCE_PROSPECT_ID,
    status: ready ? "ready" : "incomplete",
    pms_type: PMS.pmsType,
    pms_property_id: PMS.pmsPropertyId,
    pms_unit_id: PMS.pmsUnitId,
    pms_prospect_id: "example-resident-5501",
    // spec Prospect status: both URLs null on `prospect.incomplete`.
    enrollment_url: ready ? link("embedded") : null,
    hosted_enrollment_url: ready ? link("expedited") : null,
    guarantor_coverage: false,
  };
}

const POLICY_STATUS: Partial<Record<EventName, "active" | "upcoming" | "canceled" | "expired">> = {
  "policy.created": "upcoming",
  "policy.canceled": "canceled",
  "policy.expired": "expired",
};

function policyExample(event: EventName): Json {
  return policyPayload(
    {
      id: 123,
      policyNumber: POLICY_NUMBER,
      status: POLICY_STATUS[event] ?? "active",
      ...PMS,
      pmsResidentId: "example-resident-5501",
      productType: "security_deposit_insurance",
      coverageAmountCents: 150_000,
      coverageStartDate: "2026-12-01",
      coverageEndDate: "2027-11-30",
      adminPolicyUrl: `${getConfig().publicBaseUrl}/console/policies/123`,
      sourceProspectId: SOURCE_PROSPECT_ID,
      blockingReasons: [],
      policyUrl: `${getConfig().publicBaseUrl}/documents/example-archive.zip`,
    },
    event,
  );
}

function applicationExample(): Json {
  return applicationPayload({
    id: 456,
    status: "created",
    ...PMS,
    pmsResidentId: "example-resident-5501",
    sourceProspectId: SOURCE_PROSPECT_ID,
    guarantorCoverage: false,
    selectedProduct: "security_deposit_insurance",
  });
}

function delinquencyExample(event: EventName): Json {
  return delinquencyPayload({
    id: 789,
    status: event === "delinquency.resolved" ? "resolved" : "active",
    amountCents: 1_250,
    policyNumber: POLICY_NUMBER,
    pmsPropertyCode: PMS.pmsPropertyId,
    pmsUnitCode: PMS.pmsUnitId,
    pmsTenantCode: "example-resident-5501",
    sourceProspectId: SOURCE_PROSPECT_ID,
  });
}

/** The example subject of `event`: what a real event puts under its data key. */
export function exampleData(event: EventName, ownerSlug: string): Json {
  switch (EVENT_CATALOG[event]) {
    case "third_party_prospect":
      return prospectExample(event, ownerSlug);
    case "insurance_policy":
      return policyExample(event);
    case "policy_application":
      return applicationExample();
    case "delinquency":
      return delinquencyExample(event);
    case "move_out":
      return moveOutPayload({ id: 314, externalId: "example-move-out-77", status: "initiated" });
  }
}

/** spec Events, Body: the example body of `event` for the owner, with exactly the three keys of every body. */
export function exampleBody(event: EventName, ownerSlug: string): { event: EventName; property_owner_slug: string; data: Json } {
  return { event, property_owner_slug: ownerSlug, data: { [EVENT_CATALOG[event]]: exampleData(event, ownerSlug) } };
}
