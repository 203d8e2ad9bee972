/** What the renter account says (decisions §19); tests match on these. */
export const ACCOUNT_MESSAGES = {
  /** The one answer to a sign-in request, whether the email is known or not. */
  linkSent: "If an account uses this email, a sign-in link is on its way. It works once, for 15 minutes.",
  /** The error summary's title over the field's own message, as `cardInvalid` over the card's. */
  emailCheck: "Check your email address",
  emailInvalid: "Enter the email address you enrolled with, like name@example.com",
  throttled: "Too many sign-in requests. Wait 15 minutes and try again.",
  linkUsed: "This sign-in link has already been used. Ask for a new one.",
  linkExpired: "This sign-in link has expired (links work for 15 minutes). Ask for a new one.",
  linkInvalid: "This sign-in link is not valid. Ask for a new one.",
  policyNotFound: "Policy not found",
  nothingDue: "Nothing is due on this policy.",
  cardInvalid: "Check the card details",
  payDeclined: "Your card was declined. Nothing was charged: try another card.",
  notMonthly: "Only policies paid monthly keep a card for later payments.",
  policyEnded: "This policy has ended: there is no card to update.",
  /** Through Stripe (decisions §18): the Payment Element's token, never a card, reaches the server. */
  cardTokenInvalid: "Your card details didn't reach us. Nothing was charged: enter them again.",
  cardNotReplaceable: "This policy's card can't be replaced online. Your current card stays on the policy: contact us to change it.",
  cardDeclined: "Your card was refused. Your current card stays on the policy: try another card.",
  stripeNotConfigured: "Card payment through the processor is not available here.",
  stripeUnavailable: "Card payment isn't available right now. Nothing was charged: try again in a minute.",
  paymentProcessing: "Your payment is processing. This page shows it as paid as soon as your bank confirms it; nothing more to do.",
  cardProcessing: "Your bank is still checking this card. The policy keeps its current card until it confirms.",
  authenticationNeeded: "Your bank asks you to confirm this payment.",
} as const;
