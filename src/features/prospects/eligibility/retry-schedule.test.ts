import { describe, expect, it } from "vitest";
import { ELIGIBILITY_MAX_ATTEMPTS, eligibilityRetryDelaysSeconds } from "./retry-schedule";

describe("the eligibility job's retry schedule (docs/decisions.md, Prospects: `error` within 5 minutes)", () => {
  it("waits e, e², e³, e⁴ seconds between its 5 attempts: about 85 s in all, under 5 minutes", () => {
    const delays = eligibilityRetryDelaysSeconds();
    expect(delays).toHaveLength(ELIGIBILITY_MAX_ATTEMPTS - 1);
    expect(delays.map((delay) => Math.round(delay * 10) / 10)).toEqual([2.7, 7.4, 20.1, 54.6]);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeLessThan(300);
    expect(Math.round(total)).toBe(85);
  });

  it("would not fit with graphile-worker's default of 25 attempts", () => {
    const total = eligibilityRetryDelaysSeconds(25).reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(24 * 3600);
  });
});
