/**
 * What the enrollment flow says to the renter (decisions §10). Constants, so the pages, the e2e tests
 * and the docs page match on the same words.
 */
export const FLOW_MESSAGES = {
  firstNameRequired: "Enter your first name",
  lastNameRequired: "Enter your last name",
  nameTooLong: "Use at most 100 characters",
  phoneInvalid: "Enter a 10-digit phone number",
  birthdateInvalid: "Enter your date of birth as YYYY-MM-DD",
  birthdateFuture: "Date of birth must be in the past",
  birthdateTooYoung: "You must be at least 18 years old to enroll",
  birthdateTooOld: "Check the year of your date of birth",
  disclosuresRequired: "Accept the disclosures to continue",
  detailsInvalid: "Some details need your attention",

  productRequired: "Choose one of the options offered",
  cadenceRequired: "Choose to pay upfront or monthly",
  choiceInvalid: "Choose one of the options offered",

  nameOnCardRequired: "Enter the name on the card",
  cardInvalid: "Some card details need your attention",
  attemptInvalid: "This payment form expired: reload the page and try again",

  /** Conflicts: the step is no longer the current one (the page re-renders the current step). */
  notCurrentStep: "This step is no longer the current one",
  /** decisions §18: the landlord's money needs a funds-flow decision before it is taken through Stripe. */
  cashDepositCardOnly:
    "A cash deposit can't be paid online yet: card payment here is for deposit insurance premiums only. Pay your deposit to your leasing office as they instruct, or go back and choose deposit insurance.",
  paymentUnavailable: "Payment isn't available right now. Nothing was charged: try again in a minute.",
  paymentTokenInvalid: "Your card details didn't reach us. Nothing was charged: enter them again.",
  paymentProcessing: "Your payment is processing. This page shows your coverage as soon as your bank confirms it; nothing more to do.",
  authenticationNeeded: "Your bank asks you to confirm this payment.",
  alreadyPaid: "This enrollment is already paid",
  paymentInProgress: "A payment for this enrollment is being processed: pay on this page to finish it, or reload in a moment",
  linkNotValid: "This enrollment link is not valid",
} as const;

/** Why the renter cannot go on (decisions §10 Terminal states: `blocked`). */
export const BLOCKED_REASONS = {
  identityCheckFailed: "identity_check_failed",
  notEligible: "not_eligible",
  buildingInactive: "building_inactive",
  purchaseFlowOff: "purchase_flow_off",
} as const;
export type BlockedReason = (typeof BLOCKED_REASONS)[keyof typeof BLOCKED_REASONS];

export const RESULT_MESSAGES = {
  blocked: {
    identity_check_failed: "We couldn't verify your identity with the details you entered, so we can't continue online. Contact your property manager.",
    not_eligible: "This lease isn't eligible for enrollment right now. Contact your property manager.",
    building_inactive: "Enrollment isn't available for this building right now. Contact your property manager.",
    purchase_flow_off: "Your property manager hasn't opened online enrollment yet. Contact them to continue.",
  } satisfies Record<BlockedReason, string>,
  declined: "Based on the information provided, we can't offer coverage for this lease. Your property manager will tell you about other options.",
  coveredPolicy: (policyNumber: string) =>
    `Your policy ${policyNumber} is issued and your property manager is notified. Keep a copy of your policy documents: download them here.`,
  coveredCashDeposit: (amount: string) => `Your cash deposit of ${amount} is paid and recorded for your lease.`,
  coveredAlready: "You're already covered for this unit.",
} as const;

/** `$1,234.50` */
export function formatUsd(cents: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}
