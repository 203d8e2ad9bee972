/** Messages of the partner portal (docs/decisions.md, "Partner developer: portal"). */
export const PORTAL_MESSAGES = {
  linkInvalid: "This portal link is not valid. Ask your platform for a new one.",
  linkExpired: "This portal link has expired. Portal links are valid for one hour: ask your platform for a new one.",
  linkUsed: "This portal link was already opened. Portal links open once: ask your platform for a new one.",
  frameNotListed: (origins: string[]) => `must be origins listed in the owner's embedded_frame_ancestors: ${origins.join(", ")} is not`,
  sessionMissing: "Your portal session has ended. Open a new portal link from your platform.",
  retryStatusInvalid: "Choose failed or retrying.",
  sinceInvalid: "Enter a date and time (UTC), e.g. 2026-11-20 08:00.",
} as const;
