import { describe, expect, it } from "vitest";
import { deriveBuildingStreet } from "./building-street";
import { normalizeStreetLine } from "./normalize";

describe("deriveBuildingStreet (spec Property rules, Address derivation)", () => {
  it.each<[string[], string]>([
    [["123 Main St Apt 1", "123 Main Street #2", "123 MAIN ST UNIT 3"], "123 Main Street"],
    [["123 Main St Apt 1"], "123 Main Street"],
    [["123 main st"], "123 Main Street"],
    [["45 N Oak Ave Apt 1A", "45 North Oak Avenue Apt 2B"], "45 North Oak Avenue"],
    [["9 Elm St 4B", "9 Elm St 5C"], "9 Elm Street"],
    [["9 Elm St 4B", "9 Elm Street Cottage 3", "9 Elm St"], "9 Elm Street"],
    [["9 Elm St N Apt 1", "9 Elm St Apt 2"], "9 Elm Street"],
    [["42 Fifth Ave #1", "42 5th Avenue #2"], "42 5th Avenue"],
    [["100 Broadway 4B", "100 Broadway 5C"], "100 Broadway"],
    [["100 County Rd 12 Unit 1", "100 County Road 12 Unit 2"], "100 County Road 12"],
    [["77 Sunset Blvd., Ste. 100", "77 SUNSET BOULEVARD, SUITE 200"], "77 Sunset Boulevard"],
    [["1 O'Neil Blvd Apt 1", "1 ONEIL BLVD Apt 2", "1 O'Neil Blvd Apt 3"], "1 O'Neil Boulevard"],
    [["123 Main St Apt 1", "", "  ", "123 Main St Apt 2"], "123 Main Street"],
  ])("%j → %j", (lines, street) => {
    expect(deriveBuildingStreet(lines)).toBe(street);
  });

  it.each<[string[]]>([
    [[]],
    [["", "  "]],
    [["123 Main St", "125 Main St"]],
    [["123 Main St", "123 Oak St"]],
    [["123 Main St", "123 Main Ave"]],
    [["123 N Main St", "123 S Main St"]],
    [["Main St Apt 1", "Main St Apt 2"]],
    [["123 Main St Apt 1", "PO Box 55"]],
  ])("%j shares no house number and street → null", (lines) => {
    expect(deriveBuildingStreet(lines)).toBeNull();
  });

  it("does not depend on the order of the lines", () => {
    const lines = ["1 ONEIL BLVD Apt 2", "1 O'Neil Blvd Apt 1", "1 Oneil Boulevard Apt 3", "1 O'Neil Blvd #4"];
    const derived = deriveBuildingStreet(lines);
    expect(derived).toBe("1 O'Neil Boulevard");
    expect(deriveBuildingStreet([...lines].reverse())).toBe(derived);
  });

  it("derives a street with the same match key as its units' lines", () => {
    const derived = deriveBuildingStreet(["123 N. Main St Apt 1", "123 North Main Street #2"]);
    expect(derived).toBe("123 North Main Street");
    expect(normalizeStreetLine(derived ?? "")).toBe(normalizeStreetLine("123 N Main St Apt 9"));
  });
});
