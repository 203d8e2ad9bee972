import { describe, expect, it } from "vitest";
import { runDueJobs } from "../../test/jobs";
import { REASONS } from "./eligibility/reasons";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";

describe("guarantee prospects (spec Prospect status rules 3 and 4)", () => {
  it("carries empty rg reasons and no status until decided, then the decision and exclusivity reasons", async () => {
    const { post, get, source } = await prospectPartner({ guarantorCapable: true });
    const { deposit_amount_cents: _d, ...body } = completeProspect(source, "g-1", {
      guarantor_coverage: true,
      property: {
        external_system_id: "g-bldg",
        building_name: "Guarantee Court",
        address: { line_one: "5 Court St", city: "Austin", state: "TX", zip: "78701" },
      },
      unit: { external_system_id: "g-unit", name: "1" },
    });
    const pending = (await post(body)).body.prospect;
    expect(pending).toMatchObject({
      status: "processing",
      guarantor_coverage: true,
      rg_ineligibility_reasons: [],
      enrollment_url: null,
      offered_products: [],
      percent_savings: null,
    });
    expect(pending).not.toHaveProperty("rg_eligibility_status");
    expect(pending).not.toHaveProperty("sdi_ineligibility_reasons");
    await runDueJobs();
    const decided = (await get("g-1")).body.prospect;
    expect(decided).toMatchObject({
      status: "ready",
      rg_eligibility_status: "eligible",
      rg_ineligibility_reasons: [],
      sdi_ineligibility_reasons: [REASONS.guaranteeExclusive],
      cd_ineligibility_reasons: [REASONS.guaranteeExclusive],
      offered_products: [],
      percent_savings: null,
    });
    expect(decided.enrollment_url).toEqual(expect.stringContaining("/enroll/embedded/"));
  });

  it("is ineligible with a reason on a building without the guarantee product, and then has no URL", async () => {
    const { post, get, source } = await prospectPartner();
    await post(completeProspect(source, "g-2", { guarantor_coverage: true }));
    await runDueJobs();
    const prospect = (await get("g-2")).body.prospect;
    expect(prospect).toMatchObject({
      rg_eligibility_status: "ineligible",
      rg_ineligibility_reasons: [REASONS.guaranteeNotEnabled],
      enrollment_url: null,
      hosted_enrollment_url: null,
    });
  });

  it("never carries rg keys on a non-guarantee prospect", async () => {
    const { post, get, source } = await prospectPartner();
    await post(completeProspect(source, "g-3"));
    await runDueJobs();
    const prospect = (await get("g-3")).body.prospect;
    expect(prospect).not.toHaveProperty("rg_eligibility_status");
    expect(prospect).not.toHaveProperty("rg_ineligibility_reasons");
  });
});
