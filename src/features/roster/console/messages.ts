/** Messages of the console's and the CLI's building actions (style §8). */
export const BUILDING_MESSAGES = {
  buildingNotFound: "Building not found",
  ownerNotFound: (slug: string) => `No owner ${slug}`,
  buildingNotFoundFor: (slug: string, externalId: string) => `No building ${externalId} under owner ${slug}`,
  addressInvalid: "Address is invalid",
  required: "is required",
} as const;
