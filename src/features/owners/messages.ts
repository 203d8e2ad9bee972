/** Messages partners may match on (style §8). */
export const OWNER_MESSAGES = {
  invalid: "Property owner is invalid",
  managed: "external_org_id belongs to a property owner managed directly by the service",
  rosterNotLoaded: "can be enabled only after the roster is loaded: a bank account and an active property with a unit",
  takenByAnotherPartner: "external_org_id belongs to a property owner of another partner",
} as const;
