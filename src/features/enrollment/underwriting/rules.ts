import { z } from "zod";

/**
 * Underwriting and pricing rules (decisions §10 step (2), docs/underwriting.md). Data, not code: the
 * defaults below apply to every owner; an owner's override (table `underwriting_rules`) replaces any
 * subset of the fields, section by section. Rates are in basis points (1 bp = 0.01 %) so prices are
 * computed on integers.
 */

/** Guarantee coverage settings (spec Prospect: "a rent multiplier or a fixed amount"). */
export const guaranteeCoverageSettingSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("multiplier"), value: z.number().positive().max(24) }).strict(),
  z.object({ type: z.literal("fixed"), amount_cents: z.number().int().positive().max(100_000_000) }).strict(),
]);
export type GuaranteeCoverageSetting = z.infer<typeof guaranteeCoverageSettingSchema>;

const bps = z.number().int().min(0).max(10_000);
const cents = z.number().int().min(0).max(100_000_000);
/** Yearly income ≥ this × annual rent; null: income is not checked for the product. */
const incomeMultiple = z.number().min(0).max(20).nullable();
const statuses = z.array(z.string().trim().min(1).max(100)).max(50);

/** Pricing and product-level rules of an insured product (deposit insurance, guarantee). */
const insuredProductSchema = z
  .object({
    enabled: z.boolean(),
    /** Upfront premium as a share of the coverage amount. */
    upfrontRateBps: bps.min(1),
    minimumUpfrontPremiumCents: cents,
    /** Monthly cadence: the upfront premium spread over this many payments… */
    monthlyInstallments: z.number().int().min(1).max(24),
    /** …plus this surcharge on the total. */
    monthlySurchargeBps: bps,
    minIncomeToAnnualRent: incomeMultiple,
    /** Compared case-insensitively with the prospect's `employment_status`. */
    declinedEmploymentStatuses: statuses,
  })
  .strict();

export const underwritingRulesSchema = z
  .object({
    /** Compared case-insensitively with `screening_result`; any other value declines every product. */
    approvedScreeningResults: statuses.min(1),
    securityDepositInsurance: insuredProductSchema,
    cashDeposit: z.object({ enabled: z.boolean(), minIncomeToAnnualRent: incomeMultiple, declinedEmploymentStatuses: statuses }).strict(),
    guarantee: insuredProductSchema
      .extend({
        /** spec Policy payload: `product_version` of the guarantee product. */
        productVersion: z.string().regex(/^\d{4}\.\d{2}\.\d{2}$/),
        /** Used when neither the property's guarantor rule nor a unit or property coverage setting exists. */
        defaultCoverage: guaranteeCoverageSettingSchema,
      })
      .strict(),
  })
  .strict();
export type UnderwritingRules = z.infer<typeof underwritingRulesSchema>;

/** An owner's stored override: any subset of the sections, each section any subset of its fields. */
export const underwritingRulesOverrideSchema = z
  .object({
    approvedScreeningResults: underwritingRulesSchema.shape.approvedScreeningResults,
    securityDepositInsurance: underwritingRulesSchema.shape.securityDepositInsurance.partial(),
    cashDeposit: underwritingRulesSchema.shape.cashDeposit.partial(),
    guarantee: underwritingRulesSchema.shape.guarantee.partial(),
  })
  .partial()
  .strict();
export type UnderwritingRulesOverride = z.infer<typeof underwritingRulesOverrideSchema>;

/** The defaults (docs/underwriting.md, "Defaults"). */
export const DEFAULT_UNDERWRITING_RULES: UnderwritingRules = {
  approvedScreeningResults: ["approved"],
  securityDepositInsurance: {
    enabled: true,
    upfrontRateBps: 1_750, // 17.5 % of the coverage per lease year
    minimumUpfrontPremiumCents: 7_500, // $75
    monthlyInstallments: 12,
    monthlySurchargeBps: 1_000, // +10 % when paid monthly
    minIncomeToAnnualRent: 2.5, // rent at most 40 % of income
    declinedEmploymentStatuses: ["unemployed"],
  },
  // A cash deposit carries no credit risk for the service: no income or employment rule by default.
  cashDeposit: { enabled: true, minIncomeToAnnualRent: null, declinedEmploymentStatuses: [] },
  guarantee: {
    enabled: true,
    upfrontRateBps: 1_500, // 15 % of the guaranteed amount
    minimumUpfrontPremiumCents: 15_000, // $150
    monthlyInstallments: 12,
    monthlySurchargeBps: 1_000,
    minIncomeToAnnualRent: 1.5, // the guarantee exists for renters below the landlord's usual bar
    declinedEmploymentStatuses: [],
    productVersion: "2025.12.01",
    defaultCoverage: { type: "multiplier", value: 1 },
  },
};

/**
 * Defaults merged with an override: each section's fields replace the default's; arrays and the
 * coverage setting are replaced whole, never concatenated.
 */
export function mergeUnderwritingRules(defaults: UnderwritingRules, override: UnderwritingRulesOverride): UnderwritingRules {
  return underwritingRulesSchema.parse({
    approvedScreeningResults: override.approvedScreeningResults ?? defaults.approvedScreeningResults,
    securityDepositInsurance: { ...defaults.securityDepositInsurance, ...override.securityDepositInsurance },
    cashDeposit: { ...defaults.cashDeposit, ...override.cashDeposit },
    guarantee: { ...defaults.guarantee, ...override.guarantee },
  });
}
