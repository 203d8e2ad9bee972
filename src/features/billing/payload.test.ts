import { describe, expect, it } from "vitest";
import { delinquencyData } from "./payload";

const policy = { policyNumber: "PIS-2026-000042", pmsPropertyId: "PROP-1", pmsUnitId: "U-101", pmsResidentId: "RES-9", sourceProspectId: "tp-77" };

describe("delinquency payload (spec Delinquency payload)", () => {
  it("prefixes the id, carries the outstanding amount and the PMS identifiers under the _code names", () => {
    expect(delinquencyData({ id: 12, status: "active", amountCents: 2188 }, policy)).toEqual({
      id: "delinquency_12",
      status: "active",
      amount_cents: 2188,
      policy_number: "PIS-2026-000042",
      pms_property_code: "PROP-1",
      pms_unit_code: "U-101",
      pms_tenant_code: "RES-9",
      source_prospect_id: "tp-77",
    });
  });

  it("never uses the _id names of the other payloads", () => {
    const keys = Object.keys(delinquencyData({ id: 1, status: "active", amountCents: 1 }, policy));
    expect(keys.filter((key) => key.startsWith("pms_") && key.endsWith("_id"))).toEqual([]);
  });

  it("omits source_prospect_id when the policy did not come from a partner's prospect, and PMS codes it does not know", () => {
    const data = delinquencyData({ id: 3, status: "resolved", amountCents: 0 }, { ...policy, sourceProspectId: null, pmsResidentId: null });
    expect(data).not.toHaveProperty("source_prospect_id");
    expect(data).not.toHaveProperty("pms_tenant_code");
    expect(data).toMatchObject({ id: "delinquency_3", status: "resolved", amount_cents: 0 });
  });
});
