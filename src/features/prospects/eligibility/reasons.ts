/**
 * Eligibility reason strings (decisions §9). Stable: partners match on them. Documented in
 * docs/eligibility.md; change both together.
 */
export const REASONS = {
  propertyMissing: "Property must be present",
  unitMissing: "Unit must be present",
  propertyInactive: "Property must be active",
  purchaseFlowDisabled: "Property owner must have the purchase flow enabled",
  coverageUnknown: "Coverage amount must be determinable from rent or deposit",
  coverageAboveMaximum: "Coverage amount must not exceed the property owner's maximum coverage",
  guaranteeExclusive: "Not available with guarantor coverage",
  guaranteeNotEnabled: "Guarantor coverage must be enabled for the property",
  rentMissing: "Monthly rent must be present",
  undetermined: "Eligibility could not be determined",
} as const;
