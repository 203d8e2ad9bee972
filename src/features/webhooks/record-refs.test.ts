import { describe, expect, it } from "vitest";
import { recordRefsOf } from "./record-refs";

describe("recordRefsOf (the records a delivery is about)", () => {
  it("reads source_prospect_id, policy_number and move_out_id from the payload", () => {
    expect(recordRefsOf("policy.created", { policy_number: "P-1", source_prospect_id: "sp-1" })).toEqual({
      sourceProspectId: "sp-1",
      policyNumber: "P-1",
      moveOutId: null,
    });
    expect(recordRefsOf("move_out.initiated", { move_out_id: 42, external_id: "x" })).toEqual({ sourceProspectId: null, policyNumber: null, moveOutId: 42 });
  });

  it("takes prospect.created's id as the source_prospect_id, but no other event's id", () => {
    expect(recordRefsOf("prospect.created", { id: "sp-9" }).sourceProspectId).toBe("sp-9");
    expect(recordRefsOf("prospect.ready", { id: "tpp_3" }).sourceProspectId).toBeNull();
    expect(recordRefsOf("delinquency.created", { id: "delinquency_1", policy_number: "" })).toEqual({
      sourceProspectId: null,
      policyNumber: null,
      moveOutId: null,
    });
  });
});
