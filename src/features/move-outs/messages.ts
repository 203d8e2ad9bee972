export const MOVE_OUT_MESSAGES = {
  invalid: "Move-out is invalid",
  blank: "can't be blank",
  /** zod's own wording, kept from before emails were checked on their trimmed text. */
  invalidEmail: "Invalid email address",
  /** spec Errors: a duplicate key answers 422 (as the prospect's "already taken"). */
  taken: "has already been taken",
  atLeastOneResident: "must contain at least one resident",
  notFound: "Move-out not found",
} as const;
