import { describe, expect, it } from "vitest";
import { normalizeState } from "./states";

describe("normalizeState (spec Property: state is a two-letter abbreviation or full name)", () => {
  it.each([
    ["TX", "TX"],
    ["tx", "TX"],
    ["Tx", "TX"],
    [" ca ", "CA"],
    ["N.Y.", "NY"],
    ["Texas", "TX"],
    ["TEXAS", "TX"],
    ["texas", "TX"],
    ["new york", "NY"],
    [" New   York ", "NY"],
    ["North Carolina", "NC"],
    ["north dakota", "ND"],
    ["West Virginia", "WV"],
    ["Virginia", "VA"],
    ["Rhode Island", "RI"],
    ["Massachusetts", "MA"],
    ["Hawaii", "HI"],
    ["Alaska", "AK"],
    ["Washington", "WA"],
    ["Wyoming", "WY"],
    ["District of Columbia", "DC"],
    ["dc", "DC"],
    ["Puerto Rico", "PR"],
  ])("%j → %s", (input, code) => {
    expect(normalizeState(input)).toBe(code);
  });

  it.each([
    ["Guam"],
    ["GU"],
    ["VI"],
    ["US Virgin Islands"],
    ["American Samoa"],
    ["AS"],
    ["Northern Mariana Islands"],
    ["MP"],
    ["AA"],
    ["AE"],
    ["AP"],
    ["Texsa"],
    ["XX"],
    ["T X"],
    ["NewYork"],
    ["Ontario"],
    [""],
    ["   "],
  ])("%j is not a US state → null", (input) => {
    expect(normalizeState(input)).toBeNull();
  });

  it("knows all fifty states, by code and by name", () => {
    const codes =
      "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split(
        " ",
      );
    expect(codes).toHaveLength(50);
    for (const code of codes) expect(normalizeState(code.toLowerCase())).toBe(code);
    expect(normalizeState("Pennsylvania")).toBe("PA");
    expect(normalizeState("mississippi")).toBe("MS");
  });
});
