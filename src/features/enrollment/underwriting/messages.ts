import { REASONS } from "../../prospects/eligibility/reasons";

/**
 * Underwriting decline reasons (decisions §10 step (2), spec Prospect `sdi_ineligibility_reasons` /
 * `cd_ineligibility_reasons`). Stable: partners match on them. Documented in docs/underwriting.md;
 * change both together. Where eligibility already has the same reason, the same string is used.
 */
export const UNDERWRITING_REASONS = {
  /** The landlord's screening did not approve the renter (every product). */
  screeningNotApproved: "Screening result must be approved",
  /** Yearly income below the product's multiple of annual rent. */
  incomeTooLow: "Yearly income must be at least the required multiple of annual rent",
  /** An employment status the product's rules decline. */
  employmentNotAccepted: "Employment status is not accepted for this product",
  /** Coverage above the owner's `max_coverage_amount_cents` (security deposit insurance only). */
  coverageAboveMaximum: REASONS.coverageAboveMaximum,
  /** No deposit figure to write the deposit products against. */
  coverageUnknown: REASONS.coverageUnknown,
  /** The insurance premium would not be lower than the deposit it replaces. */
  premiumNotBelowDeposit: "Premium must be lower than the deposit it replaces",
  /** The owner's underwriting rules switch the product off. */
  productNotOffered: "Product is not offered by the property owner",
  /** Guarantee: no monthly rent to apply a rent multiplier to. */
  rentMissing: REASONS.rentMissing,
  /** Both deposit products of a guarantee prospect (spec: mutually exclusive products). */
  guaranteeExclusive: REASONS.guaranteeExclusive,
  /** Staging magic value: an email whose local part ends in `+decline` (decisions §10). */
  declinedByUnderwriting: "Application declined by underwriting",
} as const;

export const UNDERWRITING_MESSAGES = {
  rulesInvalid: "Underwriting rules are invalid",
  ownerNotFound: "Property owner not found",
  /** Operator-facing: a stored override that no longer validates (written around `setUnderwritingRules`). */
  storedRulesInvalid: "The stored underwriting rules of the property owner are invalid",
} as const;
