import { describe, expect, it } from "vitest";
import { productLinks } from "./links";
import { UNDERWRITING_REASONS as R } from "./messages";
import { DEFAULT_UNDERWRITING_RULES, mergeUnderwritingRules, type UnderwritingRulesOverride } from "./rules";
import { type OfferedProduct, type UnderwritingInput, type UnderwritingOutcome, underwrite } from "./underwrite";

// $2,000 rent, $2,000 deposit figure, $80,000 income: every default rule passes.
const base: UnderwritingInput = {
  prospect: {
    email: "renter@example.com",
    screeningResult: "approved",
    employmentStatus: "employed",
    yearlyIncome: 80_000,
    monthlyRentCents: 200_000,
    depositAmountCents: 200_000,
    coverageAmountCents: 200_000,
    guarantorCoverage: false,
  },
  owner: { maxCoverageAmountCents: null },
  coverageSettings: {},
  environment: "staging",
  rules: DEFAULT_UNDERWRITING_RULES,
};

type Case = {
  name: string;
  prospect?: Partial<UnderwritingInput["prospect"]>;
  owner?: UnderwritingInput["owner"];
  coverageSettings?: UnderwritingInput["coverageSettings"];
  environment?: UnderwritingInput["environment"];
  rules?: UnderwritingRulesOverride;
  expected: UnderwritingOutcome;
};

const sdi = (upfront: number, monthly: number) => ({
  product_type: "security_deposit_insurance" as const,
  upfront_premium_cents: upfront,
  monthly_premium_cents: monthly,
});
const cd = (amount: number) => ({ product_type: "cash_deposit" as const, cash_deposit_amount_cents: amount });
const quoted = (offeredProducts: OfferedProduct[], extra: Record<string, unknown> = {}) =>
  ({ status: "quoted", offeredProducts, sdiReasons: [], cdReasons: [], ...extra }) as UnderwritingOutcome;
const declined = (sdiReasons: string[], cdReasons: string[], extra: Record<string, unknown> = {}) =>
  ({ status: "declined", sdiReasons, cdReasons, ...extra }) as UnderwritingOutcome;
const guarantee = (coverage: number, upfront: number, monthly: number) => ({
  status: "quoted" as const,
  offeredProducts: [],
  guarantee: {
    product_type: "renter_guarantee_insurance" as const,
    coverageAmountCents: coverage,
    productVersion: "2025.12.01",
    upfrontPremiumCents: upfront,
    monthlyPremiumCents: monthly,
  },
  sdiReasons: [R.guaranteeExclusive],
  cdReasons: [R.guaranteeExclusive],
});
const G = { guarantorCoverage: true, depositAmountCents: 999_999, coverageAmountCents: null };

const cases: Case[] = [
  // Pricing (docs/underwriting.md, Pricing): 17.5 % upfront, +10 % over 12 months, savings to one decimal.
  { name: "both products, priced", expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }) },
  {
    name: "rounds premiums and savings half up",
    prospect: { coverageAmountCents: 123_457 },
    expected: quoted([sdi(21_605, 1_980), cd(123_457)], { percentSavings: 82.5 }),
  },
  {
    name: "minimum premium, monthly 687.5 → 688, savings 81.25 → 81.3",
    prospect: { coverageAmountCents: 40_000 },
    expected: quoted([sdi(7_500, 688), cd(40_000)], { percentSavings: 81.3 }),
  },
  {
    name: "premium just below the deposit: offered, savings 0",
    prospect: { coverageAmountCents: 7_501 },
    expected: quoted([sdi(7_500, 688), cd(7_501)], { percentSavings: 0 }),
  },
  {
    name: "premium not below the deposit declines insurance only",
    prospect: { coverageAmountCents: 7_500 },
    expected: quoted([cd(7_500)], { sdiReasons: [R.premiumNotBelowDeposit] }),
  },
  {
    name: "an owner's rate",
    rules: { securityDepositInsurance: { upfrontRateBps: 2_000, monthlySurchargeBps: 0 } },
    expected: quoted([sdi(40_000, 3_333), cd(200_000)], { percentSavings: 80 }),
  },
  // Screening (every product).
  {
    name: "screening not approved declines every product",
    prospect: { screeningResult: "declined" },
    expected: declined([R.screeningNotApproved], [R.screeningNotApproved]),
  },
  {
    name: "screening compared case-insensitively",
    prospect: { screeningResult: " Approved " },
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  {
    name: "missing screening is not checked",
    prospect: { screeningResult: null },
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  {
    name: "an owner's approved results",
    prospect: { screeningResult: "conditional" },
    rules: { approvedScreeningResults: ["approved", "conditional"] },
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  // Income: 2.5 × annual rent for insurance ($60,000 on $2,000 rent).
  {
    name: "income exactly at the multiple passes",
    prospect: { yearlyIncome: 60_000 },
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  {
    name: "income a cent below declines insurance only",
    prospect: { yearlyIncome: 59_999.99 },
    expected: quoted([cd(200_000)], { sdiReasons: [R.incomeTooLow] }),
  },
  { name: "missing income is not checked", prospect: { yearlyIncome: null }, expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }) },
  {
    name: "an owner's income rule on cash deposit too declines everything",
    prospect: { yearlyIncome: 20_000 },
    rules: { cashDeposit: { minIncomeToAnnualRent: 1 } },
    expected: declined([R.incomeTooLow], [R.incomeTooLow]),
  },
  // Employment.
  {
    name: "unemployed declines insurance only",
    prospect: { employmentStatus: "Unemployed" },
    expected: quoted([cd(200_000)], { sdiReasons: [R.employmentNotAccepted] }),
  },
  // Ceiling (decisions §9): exactly at it passes; above it declines insurance, cash deposit capped.
  {
    name: "coverage exactly at the ceiling",
    owner: { maxCoverageAmountCents: 200_000 },
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  {
    name: "coverage a cent above the ceiling declines insurance",
    prospect: { coverageAmountCents: 200_001 },
    owner: { maxCoverageAmountCents: 200_000 },
    expected: quoted([cd(200_000)], { sdiReasons: [R.coverageAboveMaximum] }),
  },
  { name: "no coverage figure declines both", prospect: { coverageAmountCents: null }, expected: declined([R.coverageUnknown], [R.coverageUnknown]) },
  // Products switched off per owner.
  {
    name: "cash deposit off",
    rules: { cashDeposit: { enabled: false } },
    expected: quoted([sdi(35_000, 3_208)], { percentSavings: 82.5, cdReasons: [R.productNotOffered] }),
  },
  {
    name: "insurance off and income too low for nothing else",
    prospect: { yearlyIncome: 10_000 },
    rules: { securityDepositInsurance: { enabled: false } },
    expected: quoted([cd(200_000)], { sdiReasons: [R.productNotOffered, R.incomeTooLow] }),
  },
  // Staging magic value (decisions §10).
  {
    name: "+decline in staging declines every product",
    prospect: { email: "Renter+Decline@example.com" },
    expected: declined([R.declinedByUnderwriting], [R.declinedByUnderwriting]),
  },
  {
    name: "+decline ignored in production",
    prospect: { email: "renter+decline@example.com" },
    environment: "production",
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  {
    name: "+declined is not the magic value",
    prospect: { email: "renter+declined@example.com" },
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  {
    name: "+decline outside the local part",
    prospect: { email: "renter@example+decline.com" },
    expected: quoted([sdi(35_000, 3_208), cd(200_000)], { percentSavings: 82.5 }),
  },
  // Guarantee (spec Prospect: coverage from the building's settings, never from the deposit).
  {
    name: "guarantee from the guarantor rule's multiplier",
    prospect: G,
    coverageSettings: { guarantorRule: { type: "multiplier", value: 2 }, property: { type: "multiplier", value: 3 } },
    expected: guarantee(400_000, 60_000, 5_500),
  },
  {
    name: "guarantee from a fixed amount",
    prospect: G,
    coverageSettings: { guarantorRule: { type: "fixed", amount_cents: 350_000 } },
    expected: guarantee(350_000, 52_500, 4_813),
  },
  {
    name: "guarantee from the unit's setting",
    prospect: G,
    coverageSettings: { unit: { type: "multiplier", value: 1.5 }, property: { type: "multiplier", value: 3 } },
    expected: guarantee(300_000, 45_000, 4_125),
  },
  {
    name: "guarantee from the property's setting",
    prospect: G,
    coverageSettings: { property: { type: "multiplier", value: 3 } },
    expected: guarantee(600_000, 90_000, 8_250),
  },
  {
    name: "guarantee default 1 × rent, minimum premium",
    prospect: { ...G, monthlyRentCents: 80_000, yearlyIncome: 20_000 },
    expected: guarantee(80_000, 15_000, 1_375),
  },
  {
    name: "guarantee fixed amount needs no rent",
    prospect: { ...G, monthlyRentCents: null },
    coverageSettings: { guarantorRule: { type: "fixed", amount_cents: 100_000 } },
    expected: guarantee(100_000, 15_000, 1_375),
  },
  {
    name: "guarantee multiplier without rent",
    prospect: { ...G, monthlyRentCents: null },
    expected: declined([R.guaranteeExclusive], [R.guaranteeExclusive], { rgReasons: [R.rentMissing] }),
  },
  { name: "guarantee income exactly 1.5 × annual rent", prospect: { ...G, yearlyIncome: 36_000 }, expected: guarantee(200_000, 30_000, 2_750) },
  {
    name: "guarantee income below 1.5 × annual rent",
    prospect: { ...G, yearlyIncome: 35_999 },
    expected: declined([R.guaranteeExclusive], [R.guaranteeExclusive], { rgReasons: [R.incomeTooLow] }),
  },
  {
    name: "guarantee +decline in staging",
    prospect: { ...G, email: "a+decline@x.test" },
    expected: declined([R.guaranteeExclusive], [R.guaranteeExclusive], { rgReasons: [R.declinedByUnderwriting] }),
  },
  {
    name: "guarantee +decline in production",
    prospect: { ...G, email: "a+decline@x.test" },
    environment: "production",
    expected: guarantee(200_000, 30_000, 2_750),
  },
  {
    name: "guarantee switched off by the owner",
    prospect: G,
    rules: { guarantee: { enabled: false } },
    expected: declined([R.guaranteeExclusive], [R.guaranteeExclusive], { rgReasons: [R.productNotOffered] }),
  },
];

const run = (c: Case) =>
  underwrite({
    prospect: { ...base.prospect, ...c.prospect },
    owner: c.owner ?? base.owner,
    coverageSettings: c.coverageSettings ?? base.coverageSettings,
    environment: c.environment ?? base.environment,
    rules: c.rules ? mergeUnderwritingRules(DEFAULT_UNDERWRITING_RULES, c.rules) : base.rules,
  });

describe("underwrite (decisions §10 step (2), docs/underwriting.md)", () => {
  it.each(cases)("$name", (c) => {
    expect(run(c)).toEqual(c.expected);
  });

  it("never offers more than two entries nor a guarantee entry, and savings stay within 0–100", () => {
    for (const c of cases) {
      const outcome = run(c);
      if (outcome.status !== "quoted") continue;
      expect(outcome.offeredProducts.length).toBeLessThanOrEqual(2);
      expect(outcome.offeredProducts.map((p) => p.product_type)).not.toContain("renter_guarantee_insurance");
      if (outcome.percentSavings !== undefined) expect(outcome.percentSavings).toBeGreaterThanOrEqual(0);
      if (outcome.percentSavings !== undefined) expect(outcome.percentSavings).toBeLessThanOrEqual(100);
      if (c.prospect?.guarantorCoverage) expect(outcome.offeredProducts).toEqual([]);
      if (c.prospect?.guarantorCoverage) expect(outcome.percentSavings).toBeUndefined();
    }
  });
});

describe("productLinks", () => {
  it("lists upfront and monthly insurance links and one cash deposit link, in offer order", () => {
    expect(productLinks(run(cases[0]))).toEqual([
      { product_type: "security_deposit_insurance", cadence: "upfront" },
      { product_type: "security_deposit_insurance", cadence: "monthly" },
      { product_type: "cash_deposit" },
    ]);
  });

  it("lists only what is offered, nothing when declined or for the guarantee", () => {
    expect(productLinks(underwrite({ ...base, prospect: { ...base.prospect, yearlyIncome: 1 } }))).toEqual([{ product_type: "cash_deposit" }]);
    expect(productLinks(underwrite({ ...base, prospect: { ...base.prospect, screeningResult: "declined" } }))).toEqual([]);
    expect(productLinks(underwrite({ ...base, prospect: { ...base.prospect, ...G } }))).toEqual([]);
  });
});
