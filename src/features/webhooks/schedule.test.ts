import { describe, expect, it } from "vitest";
import { delayBeforeAttempt, MAX_ATTEMPTS } from "./schedule";

describe("retry schedule (spec Ordering and retries)", () => {
  it("waits 4 s before the second attempt and doubles to the one-hour cap", () => {
    expect([2, 3, 4, 10, 11, 12, 25].map(delayBeforeAttempt)).toEqual([4, 8, 16, 1024, 2048, 3600, 3600]);
  });

  it("spans roughly 15 hours over 25 attempts", () => {
    let total = 0;
    for (let next = 2; next <= MAX_ATTEMPTS; next++) total += delayBeforeAttempt(next);
    expect(total / 3600).toBeGreaterThan(14.5);
    expect(total / 3600).toBeLessThan(15.5);
  });
});
