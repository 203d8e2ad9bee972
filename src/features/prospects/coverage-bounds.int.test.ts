import { describe, expect, it } from "vitest";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { MAX_COVERAGE_MULTIPLIER } from "../roster/api/properties.types";
import { PROSPECT_MESSAGES } from "./messages";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";
import { largestDocumentedRent } from "./rent-bound-test-helpers";

const guarantee = (source: string, id: string, rent: number) => {
  const { deposit_amount_cents: _deposit, ...body } = completeProspect(source, id, { guarantor_coverage: true, monthly_rent_cents: rent, yearly_income: 1e9 });
  return body;
};

describe("coverage that always fits (docs/decisions.md, Hardening: limits)", () => {
  it("the largest accepted rent on a building of the largest multiplier ends ready, never error", async () => {
    const partner = await prospectPartner({ guarantorCapable: true });
    const rent = await largestDocumentedRent();
    const multiplier = { type: "multiplier", value: MAX_COVERAGE_MULTIPLIER };
    const building = await call("POST", `${partner.base}/properties`, {
      token: partner.token,
      body: [{ external_system_id: "b1", default_coverage: multiplier }],
    });
    expect(building.body).toMatchObject({ meta: { updated: 1, failed: 0 } });

    const posted = await partner.post(guarantee(partner.source, "max-100", rent));
    expect([posted.status, posted.body.status_code]).toEqual([200, 201]);
    await runDueJobs();
    expect((await partner.get("max-100")).body.prospect).toMatchObject({
      status: "ready",
      rg_eligibility_status: "eligible",
      effective_coverage_amount_cents: rent * MAX_COVERAGE_MULTIPLIER,
    });
  });

  it("refuses a rent above the largest one at write time with a 422 naming the field, and stores nothing", async () => {
    const partner = await prospectPartner({ guarantorCapable: true });
    const rent = await largestDocumentedRent();
    for (const [id, tooLarge] of [
      ["over-1", rent + 1],
      ["over-2", 1_000_000_000],
      ["over-3", 3_000_000_000],
    ] as const) {
      const answer = await partner.post(guarantee(partner.source, id, tooLarge));
      expect([id, answer.status, answer.body]).toEqual([
        id,
        422,
        { status_code: 422, error: PROSPECT_MESSAGES.invalid, prospect: { monthly_rent_cents: PROSPECT_MESSAGES.rentTooLarge(rent) } },
      ]);
      expect((await partner.get(id)).status).toBe(404);
    }
    // Every accepted rent times every allowed multiplier is a whole number of cents an `integer` column holds.
    expect(rent * MAX_COVERAGE_MULTIPLIER).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it("re-evaluates the largest rent without error when the building's multiplier and the owner's ceiling change afterwards", async () => {
    const partner = await prospectPartner({ guarantorCapable: true });
    const rent = await largestDocumentedRent();
    expect((await partner.post(guarantee(partner.source, "later", rent))).body.status_code).toBe(201);
    await runDueJobs();
    expect((await partner.get("later")).body.prospect).toMatchObject({ status: "ready", effective_coverage_amount_cents: rent });

    // The property upsert raises the multiplier to the largest: the prospect is re-evaluated.
    const multiplier = { type: "multiplier", value: MAX_COVERAGE_MULTIPLIER };
    await call("POST", `${partner.base}/properties`, { token: partner.token, body: [{ external_system_id: "b1", default_coverage: multiplier }] });
    await runDueJobs();
    expect((await partner.get("later")).body.prospect).toMatchObject({
      status: "ready",
      rg_eligibility_status: "eligible",
      effective_coverage_amount_cents: rent * MAX_COVERAGE_MULTIPLIER,
    });

    // The owner upsert sets a ceiling, then lifts it: re-evaluated both times, never `error`.
    const owner = (ceiling: number | null) =>
      call("POST", "/api/partners/property_owners", {
        token: partner.token,
        body: { external_org_id: partner.owner.externalOrgId, max_coverage_amount_cents: ceiling },
      });
    expect((await owner(100_000_000)).status).toBe(200);
    await runDueJobs();
    expect((await partner.get("later")).body.prospect).toMatchObject({ status: "ready", effective_coverage_amount_cents: 100_000_000 });
    expect((await owner(null)).status).toBe(200);
    await runDueJobs();
    expect((await partner.get("later")).body.prospect).toMatchObject({ status: "ready", effective_coverage_amount_cents: rent * MAX_COVERAGE_MULTIPLIER });
  });
});
