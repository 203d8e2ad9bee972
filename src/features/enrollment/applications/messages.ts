/** Messages of the application steps (decisions §10); the flow and the console show them. */
export const APPLICATION_MESSAGES = {
  notFound: "Application not found",
  prospectNotEligible: "Prospect cannot enroll: it is not ready and eligible",
  canceled: "Application is canceled",
  notQuoted: "Application has not been quoted",
  productNotOffered: "Product was not offered to this application",
  cadenceRequired: "Cadence is required for insurance products",
  cadenceNotAllowed: "A cash deposit has no cadence",
} as const;
