import { UNDERWRITING_REASONS as R } from "./messages";
import { guaranteeCoverageCents, guaranteeCoverageSetting, incomeBelowMultiple, monthlyPremiumCents, percentSavings, upfrontPremiumCents } from "./pricing";
import type { GuaranteeCoverageSetting, UnderwritingRules } from "./rules";

/** What underwriting reads (decisions §10 step (2)); the flow assembles it from the prospect, owner, building and unit. */
export type UnderwritingInput = {
  prospect: {
    email: string | null;
    screeningResult: string | null;
    employmentStatus: string | null;
    /** Whole dollars per year, as the prospect carries `yearly_income`. */
    yearlyIncome: number | null;
    monthlyRentCents: number | null;
    /** Read only to be ignored for the guarantee (spec: never the guarantee coverage amount). */
    depositAmountCents: number | null;
    /**
     * The deposit figure before the owner's cap (eligibility's `coverageFor(...).raw`). Equal to
     * `effective_coverage_amount_cents` whenever that figure is within the ceiling.
     */
    coverageAmountCents: number | null;
    guarantorCoverage: boolean;
  };
  owner: { maxCoverageAmountCents: number | null };
  /** The property's guarantor rule and the unit's and property's coverage settings (`default_coverage`). */
  coverageSettings: { guarantorRule?: GuaranteeCoverageSetting | null; unit?: GuaranteeCoverageSetting | null; property?: GuaranteeCoverageSetting | null };
  environment: "staging" | "production";
  rules: UnderwritingRules;
};

/** spec "Offered product entries", without the URLs (the flow adds them, see `productLinks`). */
export type SecurityDepositInsuranceOffer = { product_type: "security_deposit_insurance"; upfront_premium_cents: number; monthly_premium_cents: number };
export type CashDepositOffer = { product_type: "cash_deposit"; cash_deposit_amount_cents: number };
export type OfferedProduct = SecurityDepositInsuranceOffer | CashDepositOffer;

export type GuaranteeQuote = {
  product_type: "renter_guarantee_insurance";
  coverageAmountCents: number;
  productVersion: string;
  upfrontPremiumCents: number;
  monthlyPremiumCents: number;
};

/**
 * Quoted: at least one applicable product is offered. The reasons of a product declined on its own
 * (insurance above the ceiling while cash deposit stays) are kept for `sdi_/cd_ineligibility_reasons`.
 */
export type QuotedOutcome = {
  status: "quoted";
  /** At most two entries, never a guarantee entry; empty for a guarantee prospect. */
  offeredProducts: OfferedProduct[];
  /** Only when deposit insurance is offered; never on a guarantee prospect. */
  percentSavings?: number;
  guarantee?: GuaranteeQuote;
  sdiReasons: string[];
  cdReasons: string[];
};
/** Declined: every applicable product declined (decisions §10: both enrollment URLs become null). */
export type DeclinedOutcome = { status: "declined"; sdiReasons: string[]; cdReasons: string[]; rgReasons?: string[] };
export type UnderwritingOutcome = QuotedOutcome | DeclinedOutcome;

const lower = (values: string[]) => values.map((value) => value.toLowerCase());

/** decisions §10, staging magic values: a local part ending in `+decline` declines every product; production ignores it. */
export function isMagicDeclineEmail(email: string | null, environment: UnderwritingInput["environment"]): boolean {
  if (environment !== "staging" || !email) return false;
  const at = email.lastIndexOf("@");
  const local = at === -1 ? email : email.slice(0, at);
  return local.toLowerCase().endsWith("+decline");
}

/** Rules that decline every product of the application. */
function sharedReasons({ prospect, environment, rules }: UnderwritingInput): string[] {
  const reasons: string[] = [];
  if (isMagicDeclineEmail(prospect.email, environment)) reasons.push(R.declinedByUnderwriting);
  const screening = prospect.screeningResult?.trim().toLowerCase();
  // A missing screening result is not checked: sources with optional ingest fields need not send it.
  if (screening && !lower(rules.approvedScreeningResults).includes(screening)) reasons.push(R.screeningNotApproved);
  return reasons;
}

type ProductRules = { enabled: boolean; minIncomeToAnnualRent: number | null; declinedEmploymentStatuses: string[] };

/** Rules every product carries in its own section: switched off, employment, income. */
function productReasons({ prospect }: UnderwritingInput, rules: ProductRules): string[] {
  const reasons: string[] = [];
  if (!rules.enabled) reasons.push(R.productNotOffered);
  const employment = prospect.employmentStatus?.trim().toLowerCase();
  if (employment && lower(rules.declinedEmploymentStatuses).includes(employment)) reasons.push(R.employmentNotAccepted);
  if (incomeBelowMultiple(prospect.yearlyIncome, prospect.monthlyRentCents, rules.minIncomeToAnnualRent)) reasons.push(R.incomeTooLow);
  return reasons;
}

function underwriteGuarantee(input: UnderwritingInput, shared: string[]): UnderwritingOutcome {
  const rules = input.rules.guarantee;
  // spec Prospect: the guarantee amount comes from the building's settings, never from deposit_amount_cents.
  const coverage = guaranteeCoverageCents(guaranteeCoverageSetting(input.coverageSettings, input.rules), input.prospect.monthlyRentCents);
  const rg = [...shared, ...(coverage === null ? [R.rentMissing] : []), ...productReasons(input, rules)];
  const exclusive = [R.guaranteeExclusive];
  if (rg.length > 0 || coverage === null) return { status: "declined", sdiReasons: exclusive, cdReasons: exclusive, rgReasons: rg };
  const upfront = upfrontPremiumCents(coverage, rules);
  return {
    status: "quoted",
    offeredProducts: [],
    guarantee: {
      product_type: "renter_guarantee_insurance",
      coverageAmountCents: coverage,
      productVersion: rules.productVersion,
      upfrontPremiumCents: upfront,
      monthlyPremiumCents: monthlyPremiumCents(upfront, rules),
    },
    sdiReasons: exclusive,
    cdReasons: exclusive,
  };
}

/**
 * Underwriting and pricing of one application (decisions §10 step (2), docs/underwriting.md).
 * Pure: the same input always gives the same outcome.
 */
export function underwrite(input: UnderwritingInput): UnderwritingOutcome {
  const shared = sharedReasons(input);
  if (input.prospect.guarantorCoverage) return underwriteGuarantee(input, shared);

  const { coverageAmountCents: coverage } = input.prospect;
  const ceiling = input.owner.maxCoverageAmountCents;
  const sdiRules = input.rules.securityDepositInsurance;
  const known = coverage !== null && coverage > 0;
  const deposit = [...shared, ...(known ? [] : [R.coverageUnknown])];

  const sdi = [...deposit, ...productReasons(input, sdiRules)];
  // decisions §9: coverage above the owner's ceiling declines deposit insurance; exactly at it passes.
  if (known && ceiling !== null && coverage > ceiling) sdi.push(R.coverageAboveMaximum);
  const upfront = known ? upfrontPremiumCents(coverage, sdiRules) : null;
  if (upfront !== null && upfront >= (coverage as number)) sdi.push(R.premiumNotBelowDeposit);
  const cd = [...deposit, ...productReasons(input, input.rules.cashDeposit)];

  if (!known || (sdi.length > 0 && cd.length > 0)) return { status: "declined", sdiReasons: sdi, cdReasons: cd };

  const offeredProducts: OfferedProduct[] = [];
  let savings: number | undefined;
  if (sdi.length === 0 && upfront !== null) {
    offeredProducts.push({
      product_type: "security_deposit_insurance",
      upfront_premium_cents: upfront,
      monthly_premium_cents: monthlyPremiumCents(upfront, sdiRules),
    });
    savings = percentSavings(coverage, upfront);
  }
  // spec Prospect `effective_coverage_amount_cents`: the cash deposit is the deposit figure, capped at the ceiling.
  if (cd.length === 0)
    offeredProducts.push({ product_type: "cash_deposit", cash_deposit_amount_cents: ceiling === null ? coverage : Math.min(coverage, ceiling) });
  return { status: "quoted", offeredProducts, ...(savings === undefined ? {} : { percentSavings: savings }), sdiReasons: sdi, cdReasons: cd };
}
