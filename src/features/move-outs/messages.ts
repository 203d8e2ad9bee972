export const MOVE_OUT_MESSAGES = {
  invalid: "Move-out is invalid",
  blank: "can't be blank",
  atLeastOneResident: "must contain at least one resident",
  notFound: "Move-out not found",
} as const;
