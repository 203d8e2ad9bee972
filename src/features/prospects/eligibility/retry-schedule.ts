/**
 * The eligibility job's attempts before the prospect is `error` (spec Prospect status: `error`
 * means eligibility could not be determined). graphile-worker's default, 25 attempts with e^n s
 * backoff, would take days; 5 attempts end within about 90 s (docs/eligibility.md).
 */
export const ELIGIBILITY_MAX_ATTEMPTS = 5;

/**
 * The waits between attempts: graphile-worker's fail_job schedules the next attempt
 * exp(min(attempts, 10)) seconds after failed attempt number `attempts`.
 */
export function eligibilityRetryDelaysSeconds(maxAttempts = ELIGIBILITY_MAX_ATTEMPTS): number[] {
  return Array.from({ length: maxAttempts - 1 }, (_, index) => Math.exp(Math.min(index + 1, 10)));
}
