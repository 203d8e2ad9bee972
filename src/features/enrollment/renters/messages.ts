/** Messages of renter records (decisions §10 Renters). */
export const RENTER_MESSAGES = {
  emailRequired: "Prospect has no email: a renter enrolls with an email",
} as const;
