/** Messages partners may match on (style §8). */
export const OWNER_MESSAGES = {
  invalid: "Property owner is invalid",
  managed: "external_org_id belongs to a property owner managed directly by the service",
  takenByAnotherPartner: "external_org_id belongs to a property owner of another partner",
} as const;
