/**
 * Largest accepted request body, on every path (docs/decisions.md "Hardening: request bodies and
 * page headers"): 500 onboarding items with generous fields fit well within it. A module of its
 * own, without imports, so next.config.ts can size the proxy's body copy from it.
 */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
