import { AppError } from "../../../server/errors";
import type { Owner } from "../../owners/service";
import { coverageOf } from "../../roster/effective";
import type { properties, units } from "../../roster/roster.table";
import { PROSPECT_MESSAGES } from "../messages";
import type { EligibilityDecision, Prospect } from "../prospects.table";
import { REASONS } from "./reasons";

type Property = typeof properties.$inferSelect;
type Unit = typeof units.$inferSelect;

export type EligibilityInput = { prospect: Prospect; owner: Owner; property: Property | null; unit: Unit | null; onboarded: boolean };
type Rule = { reason: string; declines: (input: EligibilityInput, coverage: Coverage) => boolean };
type Coverage = { raw: number | null; effective: number | null };

/**
 * The data-driven rules (decisions §9, docs/eligibility.md): each rule names the reason it gives and
 * when it declines. Every applicable product is checked against the shared rules and its own.
 */
const SHARED: Rule[] = [
  { reason: REASONS.propertyMissing, declines: ({ property }) => property === null },
  { reason: REASONS.unitMissing, declines: ({ unit }) => unit === null },
  { reason: REASONS.propertyInactive, declines: ({ property }) => property !== null && !property.active },
  { reason: REASONS.purchaseFlowDisabled, declines: ({ owner }) => !owner.purchaseFlowEnabled },
];

const DEPOSIT_PRODUCTS: Rule[] = [{ reason: REASONS.coverageUnknown, declines: (_, coverage) => coverage.raw === null }];

const SECURITY_DEPOSIT_INSURANCE: Rule[] = [
  ...DEPOSIT_PRODUCTS,
  {
    reason: REASONS.coverageAboveMaximum,
    declines: ({ owner }, coverage) => coverage.raw !== null && owner.maxCoverageAmountCents !== null && coverage.raw > owner.maxCoverageAmountCents,
  },
];

const GUARANTEE: Rule[] = [
  { reason: REASONS.guaranteeNotEnabled, declines: ({ property }) => property !== null && !property.guaranteeEnabled },
  { reason: REASONS.rentMissing, declines: ({ prospect }) => prospect.monthlyRentCents === null },
];

/**
 * spec Prospect `effective_coverage_amount_cents`: for owners provisioned through onboarding a
 * supplied deposit is the coverage (spec Prospect rules 6); otherwise the unit's, then the
 * property's coverage rule (default 1 × rent) applied to the rent. The figure is capped at the
 * owner's ceiling; an amount above it declines deposit insurance.
 */
export function coverageFor(input: EligibilityInput): Coverage {
  const { prospect, owner, property, unit, onboarded } = input;
  let raw: number | null = null;
  if (onboarded && prospect.depositAmountCents !== null && !prospect.guarantorCoverage) raw = prospect.depositAmountCents;
  else if (prospect.monthlyRentCents !== null && property) raw = Math.round(prospect.monthlyRentCents * coverageOf(property, unit ?? undefined).value);
  // A coverage rule that yields no number (a malformed rule in the roster) cannot be decided on:
  // the job fails and, after its last attempt, the prospect is `error` (docs/eligibility.md).
  if (raw !== null && !Number.isFinite(raw)) throw new AppError("internal", PROSPECT_MESSAGES.coverageRuleGivesNoAmount);
  const effective = raw === null ? null : owner.maxCoverageAmountCents === null ? raw : Math.min(raw, owner.maxCoverageAmountCents);
  return { raw, effective };
}

/**
 * The decision written when eligibility could not be determined (status `error`): every applicable
 * product carries the `undetermined` reason, so no enrollment URL is given (docs/eligibility.md).
 */
export function undeterminedDecision(guarantorCoverage: boolean): EligibilityDecision {
  if (guarantorCoverage) {
    return { sdi: [REASONS.guaranteeExclusive], cd: [REASONS.guaranteeExclusive], rg: { reasons: [REASONS.undetermined] }, eligible: false };
  }
  return { sdi: [REASONS.undetermined], cd: [REASONS.undetermined], eligible: false };
}

const reasonsFrom = (rules: Rule[], input: EligibilityInput, coverage: Coverage) =>
  rules.filter((rule) => rule.declines(input, coverage)).map((rule) => rule.reason);

export function evaluateEligibility(input: EligibilityInput): { decision: EligibilityDecision; effectiveCoverageAmountCents: number | null } {
  const coverage = coverageFor(input);
  const shared = reasonsFrom(SHARED, input, coverage);
  if (input.prospect.guarantorCoverage) {
    // spec Prospect status rule 3: a guarantee prospect is ineligible for both deposit products by design.
    const rg = [...shared, ...reasonsFrom(GUARANTEE, input, coverage)];
    return {
      decision: {
        sdi: [REASONS.guaranteeExclusive],
        cd: [REASONS.guaranteeExclusive],
        rg: { status: rg.length ? "ineligible" : "eligible", reasons: rg },
        eligible: rg.length === 0,
      },
      effectiveCoverageAmountCents: coverage.effective,
    };
  }
  const sdi = [...shared, ...reasonsFrom(SECURITY_DEPOSIT_INSURANCE, input, coverage)];
  const cd = [...shared, ...reasonsFrom(DEPOSIT_PRODUCTS, input, coverage)];
  return { decision: { sdi, cd, eligible: sdi.length === 0 || cd.length === 0 }, effectiveCoverageAmountCents: coverage.effective };
}
