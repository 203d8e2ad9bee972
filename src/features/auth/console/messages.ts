/** Messages of the console's access screens: clients and their owner grants (style §8). */
export const ACCESS_MESSAGES = {
  clientNotFound: (clientId: string) => `No client ${clientId}`,
  clientDisabled: (clientId: string) => `Client ${clientId} is disabled`,
  ownerNotFound: (slug: string) => `No owner ${slug}`,
  ownerMerged: (slug: string, survivor: string) => `Owner ${slug} was merged into ${survivor}; grant ${survivor}`,
  scopesForeign: (gateway: string, scopes: string[]) => `Scopes not of the ${gateway} gateway: ${scopes.join(", ")}`,
  scopesRequired: "Choose at least one scope",
  grantNotFound: (clientId: string, slug: string) => `Client ${clientId} has no grant of owner ${slug}`,
  providerCodeInvalid: "Provider code must be lowercase letters, digits, '_' or '-'",
} as const;
