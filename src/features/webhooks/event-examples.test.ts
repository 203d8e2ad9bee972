import { describe, expect, it } from "vitest";
import { EVENT_CATALOG, EVENT_NAMES } from "./catalog";
import { exampleBody } from "./event-examples";

/**
 * The fields of each payload table (spec Events: Prospect, Policy, Policy application, Delinquency
 * and Move-out payloads), with the ones always present. No payload schema exists beside the
 * builders, so the examples are held to the specification's tables here.
 */
const TABLES: Record<string, { fields: string[]; always: string[]; nullable?: string[] }> = {
  third_party_prospect: {
    fields: [
      "id",
      "source_prospect_id",
      "status",
      "enrollment_url",
      "hosted_enrollment_url",
      "pms_type",
      "pms_property_id",
      "pms_unit_id",
      "pms_prospect_id",
      "guarantor_coverage",
      "rg_eligibility_status",
      "rg_ineligibility_reasons",
    ],
    always: ["id", "source_prospect_id", "status", "enrollment_url", "hosted_enrollment_url", "guarantor_coverage"],
    nullable: ["enrollment_url", "hosted_enrollment_url"],
  },
  insurance_policy: {
    fields: [
      "id",
      "policy_number",
      "status",
      "pms_type",
      "pms_property_id",
      "pms_unit_id",
      "pms_resident_id",
      "product_type",
      "product_version",
      "coverage_amount_cents",
      "coverage_start_date",
      "coverage_end_date",
      "admin_policy_url",
      "source_prospect_id",
      "renewal_eligibility_status",
      "blocking_reasons",
      "policy_url",
    ],
    always: [
      "id",
      "policy_number",
      "status",
      "product_type",
      "coverage_amount_cents",
      "coverage_start_date",
      "coverage_end_date",
      "admin_policy_url",
      "renewal_eligibility_status",
      "blocking_reasons",
    ],
  },
  policy_application: {
    fields: ["id", "status", "pms_type", "pms_property_id", "pms_unit_id", "pms_resident_id", "source_prospect_id", "product_type", "product_version"],
    always: ["id", "status"],
  },
  delinquency: {
    fields: ["id", "status", "amount_cents", "policy_number", "pms_property_code", "pms_unit_code", "pms_tenant_code", "source_prospect_id"],
    always: ["id", "status", "amount_cents", "policy_number"],
  },
  move_out: { fields: ["move_out_id", "external_id", "status"], always: ["move_out_id", "external_id", "status"] },
};

const PREFIX: Record<string, RegExp> = {
  third_party_prospect: /^tpp_/,
  insurance_policy: /^policy_/,
  policy_application: /^pa_/,
  delinquency: /^delinquency_/,
};

describe("example payloads (spec Events, payload tables)", () => {
  it.each(EVENT_NAMES)("%s: the three keys, the event's data key, and only its table's fields", (event) => {
    const body = exampleBody(event, "acme-residential");
    expect(Object.keys(body).sort()).toEqual(["data", "event", "property_owner_slug"]);
    expect(body).toMatchObject({ event, property_owner_slug: "acme-residential" });
    const key = EVENT_CATALOG[event];
    expect(Object.keys(body.data)).toEqual([key]);
    const data = body.data[key] as Record<string, unknown>;
    if (event === "prospect.created") {
      // spec Prospect payload: only `id`, the partner's source_prospect_id.
      expect(Object.keys(data)).toEqual(["id"]);
      return;
    }
    const table = TABLES[key];
    expect(Object.keys(data).filter((field) => !table.fields.includes(field))).toEqual([]);
    expect(table.always.filter((field) => !(field in data))).toEqual([]);
    // spec Conventions: an optional field is omitted, never null (the prospect URLs are null by rule).
    expect(Object.entries(data).filter(([field, value]) => value === null && !table.nullable?.includes(field))).toEqual([]);
    if (PREFIX[key]) expect(data.id).toMatch(PREFIX[key]);
  });

  it("follows each event's rules: URLs only when ready, policy_url only on documents_updated, statuses by event", () => {
    const data = (event: (typeof EVENT_NAMES)[number]) => Object.values(exampleBody(event, "o").data)[0] as Record<string, unknown>;
    expect(data("prospect.ready")).toMatchObject({
      status: "ready",
      enrollment_url: expect.stringContaining("/o/"),
      hosted_enrollment_url: expect.any(String),
    });
    expect(data("prospect.incomplete")).toMatchObject({ status: "incomplete", enrollment_url: null, hosted_enrollment_url: null });
    expect(data("policy.documents_updated").policy_url).toEqual(expect.any(String));
    expect("policy_url" in data("policy.updated")).toBe(false);
    expect(data("policy.canceled").status).toBe("canceled");
    expect(data("policy.expired").status).toBe("expired");
    expect(data("delinquency.resolved").status).toBe("resolved");
    expect(data("move_out.initiated").status).toBe("initiated");
  });
});
