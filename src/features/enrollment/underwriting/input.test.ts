import { describe, expect, it } from "vitest";
import type { Owner } from "../../owners/service";
import type { Prospect } from "../../prospects/prospects.table";
import { mergeReasons } from "../../prospects/underwriting-fields";
import { type UnderwritingRow, underwritingInputOf } from "./input";
import { DEFAULT_UNDERWRITING_RULES } from "./rules";
import { underwrite } from "./underwrite";

const prospect = {
  email: "rita@example.com",
  screeningResult: "approved",
  employmentStatus: "employed",
  yearlyIncome: 85000,
  monthlyRentCents: 150000,
  depositAmountCents: 150000,
  guarantorCoverage: false,
  pmsPropertyId: null,
} as unknown as Prospect;
const property = { defaultCoverage: null, guaranteeCoverage: { type: "multiplier", value: 2 } } as unknown as NonNullable<UnderwritingRow["property"]>;
const row = (maxCoverageAmountCents: number | null): UnderwritingRow => ({ prospect, owner: { maxCoverageAmountCents } as Owner, property, unit: null });

describe("underwritingInputOf (docs/underwriting.md Inputs)", () => {
  it("passes the coverage figure BEFORE the owner's cap, so the ceiling rule can decline insurance", () => {
    const input = underwritingInputOf(row(100000), DEFAULT_UNDERWRITING_RULES, "staging");
    expect(input.prospect.coverageAmountCents).toBe(150000);
    expect(input.owner.maxCoverageAmountCents).toBe(100000);
    const outcome = underwrite(input);
    expect(outcome).toMatchObject({ status: "quoted", offeredProducts: [{ product_type: "cash_deposit", cash_deposit_amount_cents: 100000 }] });
  });

  it("carries the property's guarantor rule and the environment", () => {
    const input = underwritingInputOf(row(null), DEFAULT_UNDERWRITING_RULES, "production");
    expect(input.coverageSettings).toEqual({ guarantorRule: { type: "multiplier", value: 2 }, unit: null, property: null });
    expect(input.environment).toBe("production");
  });
});

describe("mergeReasons", () => {
  it("keeps eligibility's reasons first and each string once", () => {
    expect(mergeReasons(["a", "b"], ["b", "c"])).toEqual(["a", "b", "c"]);
    expect(mergeReasons(undefined, [])).toEqual([]);
  });
});
