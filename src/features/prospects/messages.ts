/** Messages and reasons partners match on (style §8). Eligibility reasons: docs/eligibility.md. */
export const PROSPECT_MESSAGES = {
  invalid: "Prospect is invalid",
  blank: "can't be blank",
  invalidPhone: "is not a valid phone number",
  invalidDate: "must be a date in YYYY-MM-DD form",
  invalidTimestamp: "must be an ISO 8601 timestamp",
  unknownSource: "is not a source configured for this client",
  taken: "has already been taken",
  notFound: "Prospect not found",
  rentTooLarge: (max: number) => `must be at most ${max}`,
  propertyNotCreated: "could not be created",
  /** An operator-facing failure of the eligibility job (the job's last error); the prospect ends `error`. */
  coverageRuleGivesNoAmount: "The coverage rule of the prospect's building or unit gives no amount",
} as const;
