import type { Cadence } from "../enrollment/applications/applications.table";
import type { UnderwritingOutcome } from "../enrollment/underwriting/underwrite";
import type { PolicyStatus } from "./policies.table";

/** `YYYY-MM-DD` of an instant, in UTC. */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return isoDay(at);
}

function addYear(day: string): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCFullYear(at.getUTCFullYear() + 1);
  return isoDay(at);
}

/**
 * Coverage period of a new policy (docs/decisions.md, Policies): it starts at the lease start, or on
 * the day of payment when the lease has already started (never in the past), and ends at the lease
 * end; without a lease end after the start, one year less a day.
 */
export function coveragePeriod(lease: { start: string | null; end: string | null }, paidOn: string): { start: string; end: string } {
  const start = lease.start && lease.start > paidOn ? lease.start : paidOn;
  const end = lease.end && lease.end >= start ? lease.end : addDays(addYear(start), -1);
  return { start, end };
}

/** decisions §11 Policy status at issuance: `upcoming` when coverage starts after the payment day, else `active`. */
export function statusAtIssue(coverageStart: string, paidOn: string): Extract<PolicyStatus, "upcoming" | "active"> {
  return coverageStart > paidOn ? "upcoming" : "active";
}

/** Human-readable, unique policy number from a sequence: `PIS-<year>-<6 digits>` (more digits past 999999). */
export function formatPolicyNumber(year: number, sequence: number): string {
  return `PIS-${year}-${String(sequence).padStart(6, "0")}`;
}

export type Pricing = { coverageAmountCents: number; premiumCents: number; productVersion: string | null };

/**
 * Coverage and premium of the chosen insurance product, from the stored quote. Deposit insurance
 * covers the prospect's effective coverage (it is offered only within the owner's ceiling); the
 * guarantee covers what underwriting computed from the building's settings. Undefined when the quote
 * does not price the product.
 */
export function pricingOf(
  quote: UnderwritingOutcome | null,
  productType: "security_deposit_insurance" | "renter_guarantee_insurance",
  cadence: Cadence,
  effectiveCoverageAmountCents: number | null,
): Pricing | undefined {
  if (quote?.status !== "quoted") return undefined;
  if (productType === "renter_guarantee_insurance") {
    const g = quote.guarantee;
    if (!g) return undefined;
    return {
      coverageAmountCents: g.coverageAmountCents,
      premiumCents: cadence === "upfront" ? g.upfrontPremiumCents : g.monthlyPremiumCents,
      productVersion: g.productVersion,
    };
  }
  const offer = quote.offeredProducts.find((o) => o.product_type === "security_deposit_insurance");
  if (offer?.product_type !== "security_deposit_insurance" || !effectiveCoverageAmountCents) return undefined;
  return {
    coverageAmountCents: effectiveCoverageAmountCents,
    premiumCents: cadence === "upfront" ? offer.upfront_premium_cents : offer.monthly_premium_cents,
    productVersion: null,
  };
}
