import type { GuaranteeCoverageSetting, UnderwritingRules } from "./rules";

/**
 * Prices (spec "Offered product entries"; docs/underwriting.md, "Pricing"). Whole cents, rounded
 * half up; rates in basis points so every step but the last division stays on integers.
 */
type InsuredRules = UnderwritingRules["securityDepositInsurance"] | UnderwritingRules["guarantee"];

const roundHalfUp = (value: number) => Math.floor(value + 0.5);

/** Upfront premium: the rate applied to the coverage, never below the minimum premium. */
export function upfrontPremiumCents(coverageCents: number, rules: InsuredRules): number {
  return Math.max(rules.minimumUpfrontPremiumCents, roundHalfUp((coverageCents * rules.upfrontRateBps) / 10_000));
}

/** Monthly premium: the upfront premium plus the monthly surcharge, spread over the installments. */
export function monthlyPremiumCents(upfrontCents: number, rules: InsuredRules): number {
  return roundHalfUp((upfrontCents * (10_000 + rules.monthlySurchargeBps)) / (10_000 * rules.monthlyInstallments));
}

/**
 * spec Prospect `percent_savings`: the saving of the upfront premium versus the deposit it
 * replaces, as a percentage from 0 to 100 with one decimal (rounded half up).
 */
export function percentSavings(depositCents: number, upfrontCents: number): number {
  if (depositCents <= 0 || upfrontCents >= depositCents) return 0;
  return roundHalfUp(((depositCents - upfrontCents) * 1_000) / depositCents) / 10;
}

/** The guarantee's settings in force: the property's guarantor rule, else the unit's, else the property's coverage, else the rules' default. */
export function guaranteeCoverageSetting(
  settings: { guarantorRule?: GuaranteeCoverageSetting | null; unit?: GuaranteeCoverageSetting | null; property?: GuaranteeCoverageSetting | null },
  rules: UnderwritingRules,
): GuaranteeCoverageSetting {
  return settings.guarantorRule ?? settings.unit ?? settings.property ?? rules.guarantee.defaultCoverage;
}

/**
 * spec Prospect: the guarantee coverage comes from the property's guarantor rule or coverage
 * settings, a rent multiplier or a fixed amount; never from the prospect's deposit. Null when a
 * multiplier has no rent to apply to.
 */
export function guaranteeCoverageCents(setting: GuaranteeCoverageSetting, monthlyRentCents: number | null): number | null {
  if (setting.type === "fixed") return setting.amount_cents;
  if (monthlyRentCents === null) return null;
  return roundHalfUp(monthlyRentCents * setting.value);
}

/**
 * Income rule: yearly income (whole dollars, as the prospect carries it) at least `multiple` ×
 * twelve months of rent. Exactly at the multiple passes. Not checked without income, rent or multiple.
 */
export function incomeBelowMultiple(yearlyIncome: number | null, monthlyRentCents: number | null, multiple: number | null): boolean {
  if (multiple === null || yearlyIncome === null || monthlyRentCents === null) return false;
  return roundHalfUp(yearlyIncome * 100) < roundHalfUp(multiple * 12 * monthlyRentCents);
}
