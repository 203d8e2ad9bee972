import { describe, expect, it } from "vitest";
import { isValidDay, revisionFieldErrors, statusAfterRevision } from "./rules";

const current = { coverageStartDate: "2026-12-01", coverageEndDate: "2027-11-30" };

describe("revision rules (docs/decisions.md, Policies: revisions and cancellation)", () => {
  it("accepts real calendar days only", () => {
    expect(isValidDay("2028-02-29")).toBe(true);
    for (const day of ["2027-02-29", "2026-13-01", "2026-1-01", "20261201", "2026-12-01T00:00:00Z", ""]) expect(isValidDay(day), day).toBe(false);
  });

  it("checks the amount: a positive integer, within PostgreSQL's integer and the owner's ceiling", () => {
    expect(revisionFieldErrors({ coverageAmountCents: 200000 }, current, 200000)).toEqual({});
    expect(revisionFieldErrors({ coverageAmountCents: 200001 }, current, 200000).coverage_amount_cents?.[0]).toContain("maximum of 200000");
    expect(revisionFieldErrors({ coverageAmountCents: 3_000_000_000 }, current, null)).toHaveProperty("coverage_amount_cents");
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(revisionFieldErrors({ coverageAmountCents: bad }, current, null), String(bad)).toHaveProperty("coverage_amount_cents");
  });

  it("checks the resulting period, blaming the field that was sent", () => {
    expect(revisionFieldErrors({ coverageEndDate: "2026-12-01" }, current, null)).toHaveProperty("coverage_end_date");
    expect(revisionFieldErrors({ coverageStartDate: "2027-11-30" }, current, null)).toHaveProperty("coverage_start_date");
    expect(revisionFieldErrors({ coverageStartDate: "2027-01-01", coverageEndDate: "2026-06-01" }, current, null)).toHaveProperty("coverage_end_date");
    expect(revisionFieldErrors({ coverageStartDate: "2027-01-01", coverageEndDate: "2028-01-01" }, current, null)).toEqual({});
  });

  it("re-derives the status from the new dates on the day of the revision; an end before today cancels", () => {
    const period = { start: "2026-12-01", end: "2027-11-30" };
    expect(statusAfterRevision("active", period, "2026-11-25")).toBe("upcoming");
    expect(statusAfterRevision("upcoming", period, "2026-12-01")).toBe("active");
    expect(statusAfterRevision("upcoming", period, "2027-11-30")).toBe("active");
    expect(statusAfterRevision("active", period, "2027-12-01")).toBe("canceled");
    expect(statusAfterRevision("pending", period, "2027-12-01")).toBe("pending");
  });
});
