import { describe, expect, it } from "vitest";
import { formatDate, formatUsd, optionChoices, parseChoice, preselectedValue } from "./format";
import { chooseView } from "./test-fixtures";

describe("enrollment formatting", () => {
  it("formats cents as US dollars", () => {
    expect(formatUsd(17_500)).toBe("$175.00");
    expect(formatUsd(150_000)).toBe("$1,500.00");
    expect(formatUsd(5)).toBe("$0.05");
  });

  it("formats calendar dates without a time zone shift", () => {
    expect(formatDate("2026-01-01")).toBe("Jan 1, 2026");
    expect(formatDate("garbage")).toBe("garbage");
  });

  it("a radio value parses back into the service's choice", () => {
    for (const c of optionChoices(chooseView.offers))
      expect(parseChoice(c.value)).toEqual(c.cadence ? { productType: c.productType, cadence: c.cadence } : { productType: c.productType });
    expect(parseChoice("")).toEqual({ productType: "" });
  });

  it("preselects the link's product and cadence, the first cadence when none is given, nothing otherwise", () => {
    const choices = optionChoices(chooseView.offers);
    expect(preselectedValue(choices, { productType: "security_deposit_insurance", cadence: "monthly" })).toBe("security_deposit_insurance:monthly");
    expect(preselectedValue(choices, { productType: "security_deposit_insurance" })).toBe("security_deposit_insurance:upfront");
    expect(preselectedValue(choices, { productType: "cash_deposit" })).toBe("cash_deposit");
    expect(preselectedValue(choices, { productType: "renter_guarantee_insurance" })).toBeUndefined();
    expect(preselectedValue(choices, undefined)).toBeUndefined();
  });
});
