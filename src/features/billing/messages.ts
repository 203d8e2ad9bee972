/** Messages of billing (decisions §11 Billing, §4 `billing …`): staff and the CLI read them; tests match on them. */
export const BILLING_MESSAGES = {
  policyNotFound: "Policy not found",
  notMonthly: "Policy is not paid monthly: only monthly policies are billed",
  asOfFormat: "--as-of must be a calendar date YYYY-MM-DD",
  asOfProduction: "billing run --as-of is for staging only: production bills today's date",
  failNextProduction: "billing fail-next is for staging only: production never declines a charge on purpose",
  noPaymentMethod: "Policy has no stored payment method to charge",
  settleDeclined: "The payment was declined: the delinquency stays open. Try again later or ask the renter to update their card.",
  settleFailed: "The payment could not be taken: the delinquency stays open",
} as const;

/** Why a charge of `billing run` failed (the `reason` of a `failed` item; stable). */
export const FAILURE_REASONS = {
  /** The processor declined: a delinquency is opened or added to. */
  declined: "card_declined",
  /** The policy has no stored card: nothing is recorded, the next run reports it again. */
  noPaymentMethod: "no_payment_method",
  /** The processor did not answer (or refuses, as production without one): retried by the next run. */
  processorError: "processor_error",
} as const;
