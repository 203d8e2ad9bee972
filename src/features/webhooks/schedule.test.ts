import { describe, expect, it } from "vitest";
import { delayBeforeAttempt, delayBeforeRetry, MAX_ATTEMPTS, parseRetryAfter } from "./schedule";

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

describe("Retry-After (shared decisions §15)", () => {
  const now = new Date("2026-11-26T03:00:00.000Z");

  it("reads delay-seconds and HTTP dates in all three forms, counted from now", () => {
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Thu, 26 Nov 2026 03:05:00 GMT", now)).toBe(300);
    expect(parseRetryAfter("Thursday, 26-Nov-26 03:05:00 GMT", now)).toBe(300);
    expect(parseRetryAfter("Thu Nov 26 03:05:00 2026", now)).toBe(300);
    expect(parseRetryAfter("Thu, 26 Nov 2026 03:00:00 GMT", new Date(now.getTime() - 1500))).toBe(2);
  });

  it("asks for no wait when the date is past, and for nothing when the value is not one", () => {
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now)).toBe(0);
    for (const garbage of [
      undefined,
      null,
      "",
      "soon",
      "-5",
      "1.5",
      "12s",
      "0x10",
      "2026-11-26T03:05:00Z",
      "Thu, 26 Nov 2026",
      "Thu, 99 Nov 2026 03:05:00 GMT",
    ]) {
      expect(parseRetryAfter(garbage, now)).toBeNull();
    }
  });

  it("delays the next attempt to at least what the receiver asked, capped at the one-hour backoff cap", () => {
    expect(delayBeforeRetry(2, null)).toBe(4);
    expect(delayBeforeRetry(2, 0)).toBe(4);
    expect(delayBeforeRetry(2, 90)).toBe(90);
    expect(delayBeforeRetry(10, 90)).toBe(1024);
    expect(delayBeforeRetry(2, 86_400)).toBe(3600);
    expect(delayBeforeRetry(2, Number(`9${"9".repeat(400)}`))).toBe(3600);
    expect(delayBeforeRetry(20, 86_400)).toBe(3600);
  });
});
