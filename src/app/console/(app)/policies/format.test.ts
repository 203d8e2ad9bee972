import { describe, expect, it } from "vitest";
import { centsOf } from "./format";

describe("centsOf (the revise form's coverage amount)", () => {
  it("reads dollars with up to two decimals, commas and a dollar sign, in integer cents", () => {
    expect(centsOf("1800")).toBe(180000);
    expect(centsOf("1,800.5")).toBe(180050);
    expect(centsOf(" $1,800.05 ")).toBe(180005);
    expect(centsOf("0.29")).toBe(29);
  });
  it("refuses anything else", () => {
    for (const text of ["", "lots", "1.234", "-5", "1e5", "12.", ".5"]) expect(centsOf(text), text).toBeUndefined();
  });
});
