import { describe, expect, it } from "vitest";
import { duePeriods, isCalendarDay, nextPeriod, periodStart } from "./schedule";

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

  it("answers the next month to charge, none after the coverage", () => {
    const coverage = { coverageStartDate: "2026-12-01", coverageEndDate: "2027-11-30" };
    expect(nextPeriod(coverage, "2026-12-10")).toEqual({ index: 1, start: "2027-01-01" });
    expect(nextPeriod(coverage, "2027-01-01")).toEqual({ index: 2, start: "2027-02-01" });
    expect(nextPeriod(coverage, "2027-11-01")).toBeUndefined();
  });

  it("tells calendar days from look-alikes", () => {
    expect(isCalendarDay("2027-02-28")).toBe(true);
    expect(isCalendarDay("2027-02-29")).toBe(false);
    expect(isCalendarDay("2027-2-28")).toBe(false);
    expect(isCalendarDay("tomorrow")).toBe(false);
  });
});
