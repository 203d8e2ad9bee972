/**
 * Messages of the payments feature (decisions §10). Renters read them beside the card fields, and the
 * flow and tests match on them, so they are constants. None of them ever contains what was typed.
 */
export const PAYMENT_MESSAGES = {
  /** The 422's own message when a card field fails; the field errors say which. */
  cardInvalid: "Card details are invalid",
  numberBlank: "Enter the card number",
  numberCharacters: "Card number may contain only digits, spaces and dashes",
  numberLength: "Card number must have 12 to 19 digits",
  numberChecksum: "Card number is not valid: check it and try again",
  expiryBlank: "Enter the expiry date",
  expiryFormat: "Expiry must be MM/YY or MM/YYYY",
  expiryMonth: "Expiry month must be 01 to 12",
  expiryPast: "This card has expired",
  expiryTooFar: "Expiry date is too far in the future",
  cvcBlank: "Enter the security code",
  cvcThree: "Security code must be 3 digits",
  cvcFour: "Security code must be 4 digits for American Express",
  cvcThreeOrFour: "Security code must be 3 or 4 digits",
  postalCode: "Enter a 5-digit ZIP code or ZIP+4",
  /** A charge's own fields (the flow's or billing's mistake, not the renter's). */
  chargeInvalid: "Charge is invalid",
  amount: "Amount must be a whole number of cents greater than zero",
  currency: "Currency must be usd",
  idempotencyKey: "Idempotency key must be 1 to 200 characters",
  paymentSource: "Give exactly one of a card or a stored payment method",
  methodNotFound: "Payment method not found",
  /** The same idempotency key with another amount or subject: a bug in the caller, never charged. */
  idempotencyMismatch: "Idempotency key was already used for a different charge",
  /** Decline shown to the renter (decisions §10: the renter may try again). */
  declined: "Your card was declined. Try another card or contact your bank.",
  /** decisions §10: production refuses payment until a real processor is configured. */
  notConfigured: "Payments are not available yet: no payment processor is configured",
  failNextNeedsSimulated: "Only the simulated payment processor can be told to decline a charge",
  subjectBlank: "Subject must not be blank",
  /** decisions §18: Stripe did not answer or refused what was sent; nothing was charged by this request. */
  processorUnavailable: "The payment service is not answering right now. Nothing was charged: try again in a minute.",
  intentNotFound: "Payment not found at the processor",
  paymentProcessing: "The payment is still processing at the processor",
  /** A new card for a monthly policy through the processor (SetupIntent; docs/decisions.md, "A new card through Stripe"). */
  setupPolicyNotFound: "Policy not found",
  setupNotMonthly: "Only policies paid monthly keep a card for later payments",
  setupPolicyEnded: "This policy has ended: there is no card to update",
  setupNoCustomer: "This policy's card is not kept by the processor on a customer, so a new one cannot be saved beside it",
  setupNotAvailable: "Saving a card without a payment needs the Stripe processor",
} as const;

/** Decline codes a processor answers (stable: billing and the flow branch on them). */
export const DECLINE_CODES = {
  cardDeclined: "card_declined",
} as const;
