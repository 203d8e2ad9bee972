export const MOVE_OUT_MESSAGES = {
  invalid: "Move-out is invalid",
  blank: "can't be blank",
  /** zod's own wording, kept from before emails were checked on their trimmed text. */
  invalidEmail: "Invalid email address",
  atLeastOneResident: "must contain at least one resident",
  notFound: "Move-out not found",
} as const;
