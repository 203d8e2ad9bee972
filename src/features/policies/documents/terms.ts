import type { PolicyProductType } from "./input";

/**
 * The policy terms placed in every archive beside the declarations (decisions §11 Documents). A
 * constant per edition: a change of wording is a new edition, so an archive always says which
 * terms it was issued under. Plain language, short on purpose; the declarations page holds the
 * figures.
 */
export const TERMS_EDITION = "2025.12.01";

type Section = { heading: string; body: string };

const COMMON_BEFORE: Section[] = [
  {
    heading: "1. The parties",
    body:
      "The insured is the renter or renters named on the declarations page. The property owner named there is the obligee: the " +
      "party to whom the amounts covered by this policy are owed. The declarations page, these terms and any endorsement issued " +
      "later together form the whole policy.",
  },
];

const BY_PRODUCT: Record<PolicyProductType, Section> = {
  security_deposit_insurance: {
    heading: "2. What is covered",
    body:
      "This policy replaces the cash security deposit for the unit named on the declarations page. During the coverage period, " +
      "the property owner may claim amounts the insured owes under the lease that a security deposit would have secured: unpaid " +
      "rent, and damage to the unit beyond normal wear and tear. Claims are paid up to the coverage amount in total. The " +
      "insured remains responsible for the amounts owed and agrees to repay any claim paid on the insured's behalf.",
  },
  renter_guarantee_insurance: {
    heading: "2. What is covered",
    body:
      "This policy guarantees the insured's rent obligations under the lease of the unit named on the declarations page, in place " +
      "of a personal guarantor. During the coverage period, the property owner may claim rent the insured has not paid when due. " +
      "Claims are paid up to the coverage amount in total. The insured remains responsible for the amounts owed and agrees to " +
      "repay any claim paid on the insured's behalf. The product version on the declarations page identifies the rules under " +
      "which the coverage amount was set.",
  },
};

const COMMON_AFTER: Section[] = [
  {
    heading: "3. Coverage period",
    body:
      "Coverage begins on the start date and ends on the end date shown on the declarations page, both inclusive, unless the policy " +
      "is canceled earlier. Events that occur outside the coverage period are not covered.",
  },
  {
    heading: "4. Premium",
    body:
      "The premium is shown on the declarations page. A premium paid upfront covers the whole coverage period. A monthly premium " +
      "is charged each month; a charge that fails leaves an amount outstanding, and an outstanding amount may prevent renewal " +
      "until it is settled. The premium is not a deposit and is not returned at the end of the lease.",
  },
  {
    heading: "5. Claims",
    body:
      "The property owner files a claim with supporting documents (the lease, a ledger of amounts owed, move-out inspection " +
      "records). The insured is told of every claim and may dispute it with evidence within 14 days before it is paid.",
  },
  {
    heading: "6. Changes and cancellation",
    body:
      "Changes to the coverage amount, the dates or the unit are recorded as a revision, and a new declarations page is issued; " +
      "the latest issued archive describes the policy in force. The policy may be canceled by the insured or the property owner " +
      "as the lease and the law allow; cancellation does not affect claims for events within the coverage period.",
  },
  {
    heading: "7. Keeping these documents",
    body:
      "Keep this archive with your lease. The link it was delivered under is private to the people it was sent to; do not share " +
      "it. A new link is issued with each new version of the documents.",
  },
];

/** The sections of the terms of one product, in order. */
export function termsSections(productType: PolicyProductType): Section[] {
  return [...COMMON_BEFORE, BY_PRODUCT[productType], ...COMMON_AFTER];
}
