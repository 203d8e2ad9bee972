import { describe, expect, it } from "vitest";
import { deriveBuildingStreet, deriveUnitName, formatStreet, normalizeState, normalizeStreetLine, normalizeZip } from "./index";

describe("normalizeStreetLine (spec Property rules step 3)", () => {
  it.each([
    ["123 N. Main St Apt 4", "123 North Main Street"],
    ["123 Main St Apt 4", "123 Main Street"],
    ["123 MAIN STREET #12", "123 main st"],
    ["123 Main St., Unit 3", "123 Main Street"],
    ["123 Main St APT4", "123 Main Street"],
    ["  123   main   st  ", "123 Main St"],
    ["500 Oak Avenue Suite 200", "500 Oak Ave"],
    ["500 Oak Av Ste 200", "500 OAK AVENUE"],
    ["77 Sunset Boulevard", "77 sunset blvd"],
    ["10 Court Ave", "10 Court Avenue"],
    ["9 Elm St N", "9 Elm Street North"],
    ["42 Fifth Ave", "42 5th Avenue"],
    ["1 Lakeview Dr Bldg 2", "1 Lakeview Drive"],
    ["300 W Pine Rd", "300 West Pine Road"],
  ])("%s ≡ %s", (a, b) => {
    expect(normalizeStreetLine(a)).toBe(normalizeStreetLine(b));
  });

  it.each([
    ["123 Main St", "124 Main St"],
    ["123 Main St", "123 Main Ave"],
    ["300 W Pine Rd", "300 E Pine Rd"],
    ["10 Court Ave", "10 Ct Ave Extra"],
  ])("%s differs from %s", (a, b) => {
    expect(normalizeStreetLine(a)).not.toBe(normalizeStreetLine(b));
  });
});

describe("formatStreet", () => {
  it.each([
    ["123 n main st", "123 North Main Street"],
    ["42 FIFTH AVE", "42 5th Avenue"],
    ["9 elm st n apt 2", "9 Elm Street North"],
    ["10 court ave", "10 Court Avenue"],
  ])("%s → %s", (input, output) => {
    expect(formatStreet(input)).toBe(output);
  });
});

describe("normalizeState and normalizeZip", () => {
  it.each([
    ["TX", "TX"],
    ["tx", "TX"],
    ["Texas", "TX"],
    [" new  york ", "NY"],
    ["District of Columbia", "DC"],
    ["Puerto Rico", "PR"],
    ["Texsa", null],
    ["XX", null],
  ])("state %s → %s", (input, output) => {
    expect(normalizeState(input)).toBe(output);
  });

  it.each([
    ["78701", "78701"],
    ["78701-1234", "78701"],
    ["787011234", "78701"],
    [" 78701 ", "78701"],
    ["7870", null],
    ["78701-12", null],
    ["ABCDE", null],
  ])("zip %s → %s", (input, output) => {
    expect(normalizeZip(input)).toBe(output);
  });
});

describe("deriveBuildingStreet (spec Property rules, Address derivation)", () => {
  it.each([
    [["123 Main St Apt 1", "123 Main Street #2", "123 MAIN ST UNIT 3"], "123 Main Street"],
    [["45 N Oak Ave Apt 1A", "45 North Oak Avenue Apt 2B"], "45 North Oak Avenue"],
    [["9 Elm St 4B", "9 Elm St 5C"], "9 Elm Street"],
    [["123 Main St Apt 1"], "123 Main Street"],
    [["123 Main St", "125 Main St"], null],
    [["Main St", "Main St"], null],
    [[], null],
  ])("%j → %s", (lines, street) => {
    expect(deriveBuildingStreet(lines)).toBe(street);
  });
});

describe("deriveUnitName (spec Unit rules, name derivation)", () => {
  const base = { singleUnitBuilding: false };
  it.each([
    ["the designator in the unit's own line", { line_one: "123 Main St Apt 4B" }, "4B"],
    ["a # designator", { line_one: "123 Main St #12" }, "12"],
    ["a glued designator", { line_one: "123 Main St APT7" }, "7"],
    ["the line minus the building street", { line_one: "123 Main Street 4B", buildingStreet: "123 Main Street" }, "4B"],
    ["the remainder with another spelling of the street", { line_one: "123 MAIN ST 0113", buildingStreet: "123 Main Street" }, "0113"],
    ["a nonstandard word kept verbatim", { line_one: "123 Main Street Cottage 3", buildingStreet: "123 Main Street" }, "Cottage 3"],
    ["a standard designator in line_two, word dropped", { line_one: "123 Main St", line_two: "Apt 7", buildingStreet: "123 Main Street" }, "7"],
    ["line_two Unit C", { line_two: "Unit C" }, "C"],
    ["a nonstandard line_two kept verbatim", { line_two: "Loft 2" }, "Loft 2"],
    ["the pms_unit_id", { line_one: "123 Main St", buildingStreet: "123 Main Street", pms_unit_id: "U-113" }, "U-113"],
  ])("uses %s", (_why, input, name) => {
    expect(deriveUnitName({ ...base, ...input })).toEqual({ name });
  });

  it("defaults a single-unit building to 1", () => {
    expect(deriveUnitName({ line_one: "8 Birch Ln", buildingStreet: "8 Birch Lane", singleUnitBuilding: true })).toEqual({ name: "1" });
  });

  it("fails in a multi-unit building when nothing is derivable", () => {
    expect(deriveUnitName({ line_one: "8 Birch Ln", buildingStreet: "8 Birch Lane", singleUnitBuilding: false })).toEqual({ error: "not_derivable" });
    expect(deriveUnitName({ singleUnitBuilding: false })).toEqual({ error: "not_derivable" });
  });
});
