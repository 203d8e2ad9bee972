import type { Disclosure } from "./contract";

/**
 * The disclosures the renter accepts on the details step (decisions §10 step (1)). Their acceptance is
 * recorded on the application (`disclosures_accepted_at`); changing a text means a new `id`.
 */
export const DISCLOSURES: readonly Disclosure[] = [
  {
    id: "coverage-2025-12",
    title: "What the coverage is",
    body:
      "Deposit insurance and the lease guarantee are insurance products that replace or complement a cash security deposit. " +
      "They protect your property owner, not you: if the owner makes a valid claim, you remain responsible for repaying the amount paid on your behalf.",
  },
  {
    id: "payment-2025-12",
    title: "Payment",
    body:
      "An upfront premium is charged once. A monthly premium is charged today and then each month while the policy is active. " +
      "Premiums are not refundable once coverage starts, except where the law requires it.",
  },
  {
    id: "data-2025-12",
    title: "Your information",
    body:
      "We use the details you confirm here, and those your property manager sent us, to check your identity and eligibility, " +
      "price your options and issue your policy. We share the outcome with your property manager.",
  },
];
