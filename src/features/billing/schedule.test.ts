import { describe, expect, it } from "vitest";
import { duePeriods, isCalendarDay, nextUncharged, periodStart } from "./schedule";

describe("the monthly schedule (docs/decisions.md, Billing and delinquencies)", () => {
  it("starts each month on the coverage start's day, clamped to the month's end", () => {
    expect(periodStart("2026-12-01", 0)).toBe("2026-12-01");
    expect(periodStart("2026-12-01", 1)).toBe("2027-01-01");
    expect(periodStart("2027-01-31", 1)).toBe("2027-02-28");
    expect(periodStart("2027-01-31", 2)).toBe("2027-03-31");
    expect(periodStart("2027-12-31", 2)).toBe("2028-02-29");
    expect(periodStart("2026-11-30", 3)).toBe("2027-02-28");
    expect(periodStart("2026-05-15", 19)).toBe("2027-12-15");
  });

  it("charges months 1.. that have started by the date and start within the coverage; month 0 was paid at purchase", () => {
    const coverage = { coverageStartDate: "2026-12-01", coverageEndDate: "2027-11-30" };
    expect(duePeriods(coverage, "2026-12-31")).toEqual([]);
    expect(duePeriods(coverage, "2027-01-01")).toEqual([{ index: 1, start: "2027-01-01" }]);
    expect(duePeriods(coverage, "2027-03-02").map((p) => p.start)).toEqual(["2027-01-01", "2027-02-01", "2027-03-01"]);
    // Twelve payments in all: the purchase and eleven charges.
    expect(duePeriods(coverage, "2030-01-01")).toHaveLength(11);
    expect(duePeriods(coverage, "2030-01-01").at(-1)).toEqual({ index: 11, start: "2027-11-01" });
  });

  it("answers the first month not charged yet, none after the coverage", () => {
    const coverage = { coverageStartDate: "2026-12-01", coverageEndDate: "2027-11-30" };
    expect(nextUncharged(coverage, new Set())).toEqual({ index: 1, start: "2027-01-01" });
    expect(nextUncharged(coverage, new Set([1, 2]))).toEqual({ index: 3, start: "2027-03-01" });
    expect(nextUncharged(coverage, new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]))).toBeUndefined();
  });

  it("tells calendar days from look-alikes", () => {
    expect(isCalendarDay("2027-02-28")).toBe(true);
    expect(isCalendarDay("2027-02-29")).toBe(false);
    expect(isCalendarDay("2027-2-28")).toBe(false);
    expect(isCalendarDay("tomorrow")).toBe(false);
  });
});
