import { describe, expect, it } from "vitest";
import { DEFAULT_UNDERWRITING_RULES, mergeUnderwritingRules, underwritingRulesOverrideSchema, underwritingRulesSchema } from "./rules";

describe("underwriting rules (docs/underwriting.md, Per-owner overrides)", () => {
  it("the defaults validate and carry the guarantee's first product version", () => {
    expect(underwritingRulesSchema.parse(DEFAULT_UNDERWRITING_RULES)).toEqual(DEFAULT_UNDERWRITING_RULES);
    expect(DEFAULT_UNDERWRITING_RULES.guarantee.productVersion).toBe("2025.12.01");
  });

  it("an override replaces only its fields, arrays and coverage settings whole", () => {
    const merged = mergeUnderwritingRules(DEFAULT_UNDERWRITING_RULES, {
      approvedScreeningResults: ["conditional"],
      securityDepositInsurance: { upfrontRateBps: 2_000, declinedEmploymentStatuses: [] },
      guarantee: { defaultCoverage: { type: "fixed", amount_cents: 250_000 } },
    });
    expect(merged.approvedScreeningResults).toEqual(["conditional"]);
    expect(merged.securityDepositInsurance).toEqual({
      ...DEFAULT_UNDERWRITING_RULES.securityDepositInsurance,
      upfrontRateBps: 2_000,
      declinedEmploymentStatuses: [],
    });
    expect(merged.cashDeposit).toEqual(DEFAULT_UNDERWRITING_RULES.cashDeposit);
    expect(merged.guarantee).toEqual({ ...DEFAULT_UNDERWRITING_RULES.guarantee, defaultCoverage: { type: "fixed", amount_cents: 250_000 } });
  });

  it.each([
    ["an unknown section", { pricing: {} }],
    ["an unknown field (a typo)", { securityDepositInsurance: { upfrontRate: 1_000 } }],
    ["a rate above 100 %", { securityDepositInsurance: { upfrontRateBps: 10_001 } }],
    ["a zero rate", { guarantee: { upfrontRateBps: 0 } }],
    ["fractional cents", { securityDepositInsurance: { minimumUpfrontPremiumCents: 1.5 } }],
    ["zero installments", { securityDepositInsurance: { monthlyInstallments: 0 } }],
    ["a negative income multiple", { cashDeposit: { minIncomeToAnnualRent: -1 } }],
    ["no approved screening result", { approvedScreeningResults: [] }],
    ["a product version not in date form", { guarantee: { productVersion: "v2" } }],
    ["a coverage setting of an unknown type", { guarantee: { defaultCoverage: { type: "percent", value: 10 } } }],
  ])("refuses %s", (_, override) => {
    expect(underwritingRulesOverrideSchema.safeParse(override).success).toBe(false);
  });
});
