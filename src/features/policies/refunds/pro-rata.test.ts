import { describe, expect, it } from "vitest";
import { unearnedPremiumCents } from "./pro-rata";

const YEAR = { start: "2026-12-01", end: "2027-11-30" }; // 365 days

describe("unearned premium, pro rata by day (decisions §18 Refunds)", () => {
  it("refunds everything paid when canceled before coverage starts", () => {
    expect(unearnedPremiumCents(26250, YEAR, "2026-11-24")).toBe(26250);
  });

  it("keeps the cancellation day and refunds every later day, rounded down", () => {
    // Canceled on the first day: 364 of 365 days unearned → 26250 × 364 / 365 = 26178.08…
    expect(unearnedPremiumCents(26250, YEAR, "2026-12-01")).toBe(26178);
    // Canceled after 100 days of coverage (2027-03-10 is day 100): 265 unearned.
    expect(unearnedPremiumCents(36500, YEAR, "2027-03-10")).toBe(26500);
  });

  it("refunds nothing on or after the last day, and nothing of nothing", () => {
    expect(unearnedPremiumCents(26250, YEAR, "2027-11-30")).toBe(0);
    expect(unearnedPremiumCents(26250, YEAR, "2028-01-01")).toBe(0);
    expect(unearnedPremiumCents(0, YEAR, "2026-11-01")).toBe(0);
  });

  it("counts a leap day as a day", () => {
    const leap = { start: "2028-01-01", end: "2028-12-31" }; // 366 days
    expect(unearnedPremiumCents(36600, leap, "2028-02-29")).toBe(30600);
  });
});
