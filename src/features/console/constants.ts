/** Where next-auth is mounted: under the console, never under the Partner API's `/api`. */
export const CONSOLE_AUTH_BASE_PATH = "/console/api/auth";

/** The error code of a sign-in refused for too many failures (decisions §15); the sign-in page reads it. */
export const SIGN_IN_THROTTLED = "TooManyAttempts";

/** The error code of a sign-in that failed on our side (the cause is logged, never shown). */
export const SIGN_IN_UNAVAILABLE = "SignInUnavailable";

/** Why a session cookie is no longer renewed: signed out, or past its 12 h (sessions.ts). */
export const SESSION_ENDED = "SessionEnded";
