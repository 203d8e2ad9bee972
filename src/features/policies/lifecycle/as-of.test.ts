import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../../server/config";
import { resolveAsOf, sweepToday } from "./as-of";

const NOW = new Date("2026-11-25T23:30:00-05:00"); // 04:30 UTC on the 26th

afterEach(() => {
  process.env.APP_ENV = "staging";
  resetConfig();
});

describe("the sweep's day (docs/policies.md, Time zone; decisions §4 --as-of)", () => {
  it("counts days in UTC", () => {
    expect(sweepToday(NOW)).toBe("2026-11-26");
    expect(resolveAsOf(undefined, NOW)).toBe("2026-11-26");
  });

  it("accepts real calendar dates only", () => {
    expect(resolveAsOf("2028-02-29", NOW)).toBe("2028-02-29");
    for (const bad of ["2027-02-29", "2026-13-01", "2026-1-01", "2026-11-26T00:00:00Z", " 2026-11-26", ""]) {
      expect(() => resolveAsOf(bad, NOW), bad).toThrow("--as-of must be a date as YYYY-MM-DD");
    }
  });

  it("refuses another day than today in production, and accepts today there", () => {
    process.env.APP_ENV = "production";
    resetConfig();
    expect(() => resolveAsOf("2026-11-25", NOW)).toThrow("--as-of other than today (2026-11-26) is refused in production");
    expect(resolveAsOf("2026-11-26", NOW)).toBe("2026-11-26");
  });
});
