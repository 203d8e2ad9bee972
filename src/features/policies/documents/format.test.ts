import { describe, expect, it } from "vitest";
import { addressLines, formatDate, formatInstant, formatPremium, formatUsd } from "./format";

describe("declarations formatting", () => {
  it("formats cents as US dollars without floating-point rounding", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(5)).toBe("$0.05");
    expect(formatUsd(150000)).toBe("$1,500.00");
    expect(formatUsd(123456789)).toBe("$1,234,567.89");
    expect(formatUsd(Number.MAX_SAFE_INTEGER)).toBe("$90,071,992,547,409.91");
  });

  it("writes calendar dates in words, never shifted by a time zone", () => {
    expect(formatDate("2026-01-05")).toBe("January 5, 2026");
    expect(formatDate("2026-12-31")).toBe("December 31, 2026");
    expect(formatInstant(new Date("2026-03-01T00:07:00Z"))).toBe("March 1, 2026 at 00:07 UTC");
  });

  it("says how the premium is paid", () => {
    expect(formatPremium({ cadence: "upfront", amountCents: 17500 })).toBe("$175.00 paid upfront");
    expect(formatPremium({ cadence: "monthly", amountCents: 1905 })).toBe("$19.05 per month");
  });

  it("keeps the address as stored", () => {
    expect(addressLines({ lineOne: "123 Main St Apt 4", city: "Austin", state: "TX", zip: "78701" })).toEqual(["123 Main St Apt 4", "Austin, TX 78701"]);
  });
});
