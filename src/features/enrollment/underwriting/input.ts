import type { Owner } from "../../owners/service";
import { coverageFor } from "../../prospects/eligibility/evaluate";
import type { Prospect } from "../../prospects/prospects.table";
import type { properties, units } from "../../roster/roster.table";
import type { UnderwritingRules } from "./rules";
import type { UnderwritingInput } from "./underwrite";

type Property = typeof properties.$inferSelect;
type Unit = typeof units.$inferSelect;

export type UnderwritingRow = { prospect: Prospect; owner: Owner; property: Property | null; unit: Unit | null };

/**
 * `underwrite()`'s input for one application (decisions §10 step (2), docs/underwriting.md
 * "Inputs"). The coverage figure is eligibility's deposit figure BEFORE the owner's cap
 * (`coverageFor(...).raw`): the capped `effective_coverage_amount_cents` could never be above the
 * ceiling, so the ceiling rule would never decline.
 */
export function underwritingInputOf(row: UnderwritingRow, rules: UnderwritingRules, environment: UnderwritingInput["environment"]): UnderwritingInput {
  const { prospect, owner, property, unit } = row;
  const coverage = coverageFor({ prospect, owner, property, unit, onboarded: prospect.pmsPropertyId === null });
  return {
    prospect: {
      email: prospect.email,
      screeningResult: prospect.screeningResult,
      employmentStatus: prospect.employmentStatus,
      yearlyIncome: prospect.yearlyIncome,
      monthlyRentCents: prospect.monthlyRentCents,
      depositAmountCents: prospect.depositAmountCents,
      coverageAmountCents: coverage.raw,
      guarantorCoverage: prospect.guarantorCoverage,
    },
    owner: { maxCoverageAmountCents: owner.maxCoverageAmountCents },
    // spec "guarantee coverage": the property's guarantor rule, else the unit's, else the property's coverage setting.
    coverageSettings: { guarantorRule: property?.guaranteeCoverage ?? null, unit: unit?.defaultCoverage ?? null, property: property?.defaultCoverage ?? null },
    environment,
    rules,
  };
}
