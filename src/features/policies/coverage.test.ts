import { describe, expect, it } from "vitest";
import type { UnderwritingOutcome } from "../enrollment/underwriting/underwrite";
import { coveragePeriod, formatPolicyNumber, isoDay, pricingOf, statusAtIssue } from "./coverage";

describe("coverage period and status at issuance (decisions §11 Policy status)", () => {
  it("starts at a future lease start and ends at the lease end", () => {
    expect(coveragePeriod({ start: "2027-01-01", end: "2027-12-31" }, "2026-11-24")).toEqual({ start: "2027-01-01", end: "2027-12-31" });
    expect(statusAtIssue("2027-01-01", "2026-11-24")).toBe("upcoming");
  });

  it("starts on the payment day when the lease has started, and is active", () => {
    expect(coveragePeriod({ start: "2026-10-01", end: "2027-09-30" }, "2026-11-24")).toEqual({ start: "2026-11-24", end: "2027-09-30" });
    expect(statusAtIssue("2026-11-24", "2026-11-24")).toBe("active");
  });

  it("runs one year less a day without a usable lease end", () => {
    expect(coveragePeriod({ start: null, end: null }, "2026-11-24")).toEqual({ start: "2026-11-24", end: "2027-11-23" });
    expect(coveragePeriod({ start: "2027-02-01", end: "2026-12-01" }, "2026-11-24")).toEqual({ start: "2027-02-01", end: "2028-01-31" });
  });

  it("dates an instant in UTC", () => {
    expect(isoDay(new Date("2026-11-24T23:59:59Z"))).toBe("2026-11-24");
  });
});

describe("policy numbers", () => {
  it("are PIS-<year>-<six digits>, growing past a million", () => {
    expect(formatPolicyNumber(2026, 42)).toBe("PIS-2026-000042");
    expect(formatPolicyNumber(2027, 1234567)).toBe("PIS-2027-1234567");
  });
});

describe("pricingOf", () => {
  const quoted: UnderwritingOutcome = {
    status: "quoted",
    offeredProducts: [
      { product_type: "security_deposit_insurance", upfront_premium_cents: 22500, monthly_premium_cents: 2000 },
      { product_type: "cash_deposit", cash_deposit_amount_cents: 150000 },
    ],
    percentSavings: 85,
    sdiReasons: [],
    cdReasons: [],
  };

  it("prices deposit insurance on the effective coverage at the chosen cadence", () => {
    expect(pricingOf(quoted, "security_deposit_insurance", "upfront", 150000)).toEqual({
      coverageAmountCents: 150000,
      premiumCents: 22500,
      productVersion: null,
    });
    expect(pricingOf(quoted, "security_deposit_insurance", "monthly", 150000)?.premiumCents).toBe(2000);
  });

  it("prices the guarantee from its quote, with its version", () => {
    const guarantee: UnderwritingOutcome = {
      status: "quoted",
      offeredProducts: [],
      guarantee: {
        product_type: "renter_guarantee_insurance",
        coverageAmountCents: 300000,
        productVersion: "2025.12.01",
        upfrontPremiumCents: 30000,
        monthlyPremiumCents: 2700,
      },
      sdiReasons: [],
      cdReasons: [],
    };
    expect(pricingOf(guarantee, "renter_guarantee_insurance", "monthly", null)).toEqual({
      coverageAmountCents: 300000,
      premiumCents: 2700,
      productVersion: "2025.12.01",
    });
  });

  it("prices nothing that was not offered or declined", () => {
    expect(pricingOf(quoted, "renter_guarantee_insurance", "upfront", 150000)).toBeUndefined();
    expect(pricingOf({ status: "declined", sdiReasons: ["x"], cdReasons: ["y"] }, "security_deposit_insurance", "upfront", 150000)).toBeUndefined();
    expect(pricingOf(null, "security_deposit_insurance", "upfront", 150000)).toBeUndefined();
  });
});
