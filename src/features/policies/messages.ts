import { REASONS } from "../prospects/eligibility/reasons";

/**
 * Why a policy cannot renew (spec Policy payload `blocking_reasons`; decisions §11). Stable: partners
 * match on them. Documented in docs/policies.md (Renewal eligibility); change both together. Where eligibility
 * already words the same condition, the same string is used.
 */
export const RENEWAL_BLOCKING_REASONS = {
  policyCanceled: "Policy is canceled",
  policyExpired: "Policy is expired",
  propertyInactive: REASONS.propertyInactive,
  purchaseFlowDisabled: REASONS.purchaseFlowDisabled,
  openDelinquency: "Policy has an open delinquency",
  guaranteeNotEnabled: REASONS.guaranteeNotEnabled,
  coverageAboveMaximum: REASONS.coverageAboveMaximum,
} as const;

/** Messages of the status sweep (`policy expire-due`; docs/policies.md). */
export const LIFECYCLE_MESSAGES = {
  badAsOf: "--as-of must be a date as YYYY-MM-DD",
  asOfInProduction: (today: string) => `--as-of other than today (${today}) is refused in production; the sweep runs for today only`,
  terminal: (from: string, to: string) => `A ${from} policy cannot become ${to}: ${from} is final`,
} as const;

/** Messages of the issuance flow (operator and flow errors, never partner-facing bodies). */
export const POLICY_MESSAGES = {
  notQuoted: "Application has not been quoted",
  notSubmitted: "Application has not been submitted",
  productNotOffered: "Product was not offered to this application",
  notAPolicyProduct: "Cash deposit applications are recorded as cash deposits, not policies",
  notACashDeposit: "Only a cash deposit application records a cash deposit",
  unitMissing: "Prospect has no resolved property and unit",
  applicationCanceled: "Application is canceled",
  alreadyCovered: "Application already has a policy or cash deposit",
  notFound: "Policy not found",
  ownerNotFound: (slug: string) => `No owner ${slug}`,
} as const;
