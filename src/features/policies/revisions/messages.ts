/** Messages of policy revisions and cancellation (console and CLI; never partner-facing). */
export const REVISION_MESSAGES = {
  notFound: "Policy not found",
  policyNumberNotFound: (number: string) => `No policy ${number}`,
  invalid: "Revision is invalid",
  nothingToChange: "Nothing to change: give a new coverage amount, start date, end date or unit",
  amountNotPositive: "Coverage amount must be a positive whole number of cents",
  amountOverOwnerMax: (max: number) => `Coverage amount is above the owner's maximum of ${max} cents`,
  dateInvalid: "Must be a date in the form YYYY-MM-DD",
  startNotBeforeEnd: "Coverage start date must be before the end date",
  unitNotFound: "No unit with this external id in the policy's building",
  unitOfAnotherBuilding: "A unit correction stays within the policy's building",
  notRevisable: (status: string) => `Policy is ${status} and cannot be revised`,
  alreadyCanceled: "Policy is already canceled",
  notCancelable: (status: string) => `Policy is ${status} and cannot be canceled`,
  reasonTooLong: "Reason is at most 500 characters",
  noteTooLong: "Note is at most 500 characters",
  revisionCancelReason: "Coverage ended early by a revision",
} as const;
