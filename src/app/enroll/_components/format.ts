import type { Cadence } from "@/features/enrollment/applications/applications.table";
import type { OfferView } from "@/features/enrollment/flow/contract";

const USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Cents as US dollars, e.g. 17500 → "$175.00". */
export function formatUsd(cents: number): string {
  return USD.format(cents / 100);
}

/** "2026-01-31" → "Jan 31, 2026" (dates are calendar dates: no time zone shift). */
export function formatDate(isoDate: string): string {
  const [y, m, d] = isoDate.split("-").map(Number);
  if (!y || !m || !d) return isoDate;
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}

/** One radio of the choose step: the accessible names are fixed (docs: ui-contract, e2e tests match them). */
export type OptionChoice = {
  /** The radio's value: `productType` or `productType:cadence`, parsed back by `parseChoice`. */
  value: string;
  productType: OfferView["productType"];
  cadence?: Cadence;
  label: string;
  /** The price first, then what it buys. */
  description: string;
};

/** The radios an offer list makes: insurance products give one per cadence, a cash deposit one. */
export function optionChoices(offers: OfferView[]): OptionChoice[] {
  return offers.flatMap(offerChoices);
}

function offerChoices(offer: OfferView): OptionChoice[] {
  switch (offer.productType) {
    case "security_deposit_insurance": {
      const covers = `covers ${formatUsd(offer.coverageAmountCents)} of your deposit`;
      const savings = offer.percentSavings !== null ? ` (you save ${offer.percentSavings}%)` : "";
      return [
        choice(offer.productType, "upfront", "Deposit insurance, paid upfront", `${formatUsd(offer.upfrontPremiumCents)} once, ${covers}${savings}.`),
        choice(offer.productType, "monthly", "Deposit insurance, paid monthly", `${formatUsd(offer.monthlyPremiumCents)} a month, ${covers}.`),
      ];
    }
    case "cash_deposit":
      return [
        {
          value: offer.productType,
          productType: offer.productType,
          label: "Cash deposit",
          description: `${formatUsd(offer.cashDepositAmountCents)} paid now, held as your security deposit.`,
        },
      ];
    case "renter_guarantee_insurance": {
      const covers = `guarantees your lease up to ${formatUsd(offer.coverageAmountCents)}`;
      return [
        choice(offer.productType, "upfront", "Lease guarantee, paid upfront", `${formatUsd(offer.upfrontPremiumCents)} once, ${covers}.`),
        choice(offer.productType, "monthly", "Lease guarantee, paid monthly", `${formatUsd(offer.monthlyPremiumCents)} a month, ${covers}.`),
      ];
    }
  }
}

function choice(productType: OfferView["productType"], cadence: Cadence, label: string, description: string): OptionChoice {
  return { value: `${productType}:${cadence}`, productType, cadence, label, description };
}

/** The radio's value back into the service's input (`ChoiceInput`); an empty value gives an empty product. */
export function parseChoice(value: string): { productType: string; cadence?: string } {
  const [productType = "", cadence] = value.split(":");
  return cadence ? { productType, cadence } : { productType };
}

/** The radio to preselect: the link's or the earlier choice; a product without cadence picks its first. */
export function preselectedValue(choices: OptionChoice[], selected?: { productType: OfferView["productType"]; cadence?: Cadence }): string | undefined {
  if (!selected) return undefined;
  const same = choices.filter((c) => c.productType === selected.productType);
  return (same.find((c) => c.cadence === selected.cadence) ?? same[0])?.value;
}
