import { describe, expect, it } from "vitest";
import type { Owner } from "../../owners/service";
import type { properties, units } from "../../roster/roster.table";
import type { Prospect } from "../prospects.table";
import { evaluateEligibility } from "./evaluate";
import { REASONS } from "./reasons";

const owner = { purchaseFlowEnabled: true, maxCoverageAmountCents: null } as Owner;
const property = { active: true, guaranteeEnabled: true, defaultCoverage: null } as typeof properties.$inferSelect;
const unit = { defaultCoverage: null } as typeof units.$inferSelect;
const prospect = { monthlyRentCents: 100000, depositAmountCents: 120000, guarantorCoverage: false } as Prospect;
const input = { prospect, owner, property, unit, onboarded: true };

describe("evaluateEligibility (decisions §9, docs/eligibility.md)", () => {
  it("offers both deposit products when nothing declines them", () => {
    expect(evaluateEligibility(input)).toEqual({ decision: { sdi: [], cd: [], eligible: true }, effectiveCoverageAmountCents: 120000 });
  });

  it("uses the supplied deposit for onboarded owners and the coverage rule otherwise", () => {
    expect(evaluateEligibility({ ...input, onboarded: false }).effectiveCoverageAmountCents).toBe(100000);
    const noDeposit = { ...prospect, depositAmountCents: null };
    const withRule = { ...property, defaultCoverage: { type: "multiplier" as const, value: 1.5 } };
    expect(evaluateEligibility({ ...input, prospect: noDeposit, property: withRule }).effectiveCoverageAmountCents).toBe(150000);
    const unitRule = { ...unit, defaultCoverage: { type: "multiplier" as const, value: 2 } };
    expect(evaluateEligibility({ ...input, prospect: noDeposit, property: withRule, unit: unitRule }).effectiveCoverageAmountCents).toBe(200000);
  });

  it("caps the figure at the owner's ceiling and declines deposit insurance above it", () => {
    const capped = evaluateEligibility({ ...input, owner: { ...owner, maxCoverageAmountCents: 100000 } });
    expect(capped.effectiveCoverageAmountCents).toBe(100000);
    expect(capped.decision).toEqual({ sdi: [REASONS.coverageAboveMaximum], cd: [], eligible: true });
  });

  it("declines every product with the shared reasons, and then no product is eligible", () => {
    const result = evaluateEligibility({ ...input, property: null, unit: null, owner: { ...owner, purchaseFlowEnabled: false } });
    expect(result.decision.eligible).toBe(false);
    expect(result.decision.sdi).toEqual([REASONS.propertyMissing, REASONS.unitMissing, REASONS.purchaseFlowDisabled]);
    expect(evaluateEligibility({ ...input, onboarded: false, property: null }).decision.cd).toContain(REASONS.coverageUnknown);
    expect(evaluateEligibility({ ...input, property: { ...property, active: false } }).decision.cd).toEqual([REASONS.propertyInactive]);
  });

  it("gives a guarantee prospect the exclusivity reason on both deposit products (spec Prospect status rule 3)", () => {
    const guarantee = { ...prospect, guarantorCoverage: true, depositAmountCents: null };
    expect(evaluateEligibility({ ...input, prospect: guarantee }).decision).toEqual({
      sdi: [REASONS.guaranteeExclusive],
      cd: [REASONS.guaranteeExclusive],
      rg: { status: "eligible", reasons: [] },
      eligible: true,
    });
    expect(evaluateEligibility({ ...input, prospect: guarantee, property: { ...property, guaranteeEnabled: false } }).decision).toEqual({
      sdi: [REASONS.guaranteeExclusive],
      cd: [REASONS.guaranteeExclusive],
      rg: { status: "ineligible", reasons: [REASONS.guaranteeNotEnabled] },
      eligible: false,
    });
  });
});
