import { describe, expect, it } from "vitest";
import { deriveUnitName, type UnitNameInput } from "./unit-name";

type Case = [why: string, input: Omit<UnitNameInput, "singleUnitBuilding">, name: string];
const multi = { singleUnitBuilding: false };
const building = "123 Main Street";

describe("deriveUnitName (spec Unit rules, name derivation)", () => {
  it.each<Case>([
    ["Apt 4B", { line_one: "123 Main St Apt 4B" }, "4B"],
    ["Apt. 4", { line_one: "123 Main St Apt. 4" }, "4"],
    ["#12", { line_one: "123 Main St #12" }, "12"],
    ["Unit #3", { line_one: "123 Main St Unit #3" }, "3"],
    ["glued APT7", { line_one: "123 Main St APT7" }, "7"],
    ["Suite after a comma", { line_one: "500 Oak Ave, Suite 200" }, "200"],
    ["a letter", { line_one: "123 Main St Unit C" }, "C"],
    ["leading zeros kept", { line_one: "123 Main St Apt 0113" }, "0113"],
    ["a designator without value, kept", { line_one: "123 Main St Rear" }, "Rear"],
    ["Penthouse, kept as written", { line_one: "123 Main St Penthouse" }, "Penthouse"],
    ["the unit, not the building", { line_one: "123 Main St Bldg 2 Apt 4" }, "4"],
    ["before line_two", { line_one: "123 Main St Apt 4", line_two: "Apt 9", buildingStreet: building }, "4"],
    ["before the street remainder", { line_one: "123 Main St Apt 4", buildingStreet: "123 Main St Apt 1" }, "4"],
  ])("step 1, the designator in the unit's own street line: %s", (_why, input, name) => {
    expect(deriveUnitName({ ...multi, ...input })).toEqual({ name });
  });

  it.each<Case>([
    ["a bare unit", { line_one: "123 Main Street 4B", buildingStreet: building }, "4B"],
    ["another spelling of the street", { line_one: "123 MAIN ST 0113", buildingStreet: building }, "0113"],
    ["directionals spelled differently", { line_one: "45 N. Oak Ave 2", buildingStreet: "45 North Oak Avenue" }, "2"],
    ["a nonstandard word kept verbatim", { line_one: "9 Elm Street Cottage 3", buildingStreet: "9 Elm Street" }, "Cottage 3"],
    ["Loft kept verbatim", { line_one: "9 Elm St Loft 2", buildingStreet: "9 Elm Street" }, "Loft 2"],
    ["a building street sent with a unit", { line_one: "9 Elm St 5C", buildingStreet: "9 Elm St Apt 1" }, "5C"],
    ["a bare number after a road", { line_one: "9 Elm Rd 4", buildingStreet: "9 Elm Road" }, "4"],
    ["before line_two", { line_one: "9 Elm St 4B", line_two: "Apt 9", buildingStreet: "9 Elm Street" }, "4B"],
  ])("step 2, the street line with the building's street removed: %s", (_why, input, name) => {
    expect(deriveUnitName({ ...multi, ...input })).toEqual({ name });
  });

  it.each<Case>([
    ["Apt 7", { line_one: "123 Main St", line_two: "Apt 7", buildingStreet: building }, "7"],
    ["Unit C", { line_two: "Unit C" }, "C"],
    ["#5", { line_two: "#5" }, "5"],
    ["Suite 210, with a comma", { line_two: "Suite 210," }, "210"],
    ["APT4B glued", { line_two: "APT4B" }, "4B"],
    ["Bldg 2 Unit 7", { line_two: "Bldg 2 Unit 7" }, "7"],
    ["a bare value", { line_two: "4B" }, "4B"],
    ["a nonstandard word kept verbatim", { line_two: "Cottage 3" }, "Cottage 3"],
    ["Loft 2", { line_two: "Loft 2" }, "Loft 2"],
    ["Rear", { line_two: "Rear" }, "Rear"],
    ["when the line has another street", { line_one: "77 Other St", line_two: "Apt 7", buildingStreet: building }, "7"],
    ["before pms_unit_id", { line_two: "Apt 7", pms_unit_id: "U-9" }, "7"],
  ])("step 3, a designator in line_two: %s", (_why, input, name) => {
    expect(deriveUnitName({ ...multi, ...input })).toEqual({ name });
  });

  it.each<Case>([
    ["no address", {}, "U-113"],
    ["a line that is the building street", { line_one: "123 Main St", buildingStreet: building }, "U-113"],
    ["a line_two that names no unit", { line_one: "123 Main St", line_two: "Attn Leasing Office", buildingStreet: building }, "U-113"],
    ["an unknown building street", { line_one: "123 Main St" }, "U-113"],
  ])("step 4, the pms_unit_id: %s", (_why, input, name) => {
    expect(deriveUnitName({ ...multi, ...input, pms_unit_id: " U-113 " })).toEqual({ name });
  });

  it("step 5: a single-unit building defaults to 1", () => {
    expect(deriveUnitName({ line_one: "8 Birch Ln", buildingStreet: "8 Birch Lane", singleUnitBuilding: true })).toEqual({ name: "1" });
    expect(deriveUnitName({ singleUnitBuilding: true })).toEqual({ name: "1" });
    expect(deriveUnitName({ pms_unit_id: "A", singleUnitBuilding: true })).toEqual({ name: "A" });
  });

  it.each<[string, Omit<UnitNameInput, "singleUnitBuilding">]>([
    ["nothing at all", {}],
    ["nulls", { line_one: null, line_two: null, buildingStreet: null, pms_unit_id: null }],
    ["blanks", { line_one: "  ", line_two: " ", buildingStreet: "", pms_unit_id: "  " }],
    ["only the building street", { line_one: "8 Birch Ln", buildingStreet: "8 Birch Lane" }],
    ["a street line without a unit and no building street", { line_one: "8 Birch Ln" }],
    ["a line_two without a unit", { line_one: "8 Birch Ln", line_two: "c/o Smith", buildingStreet: "8 Birch Lane" }],
  ])("fails in a multi-unit building when nothing is derivable: %s", (_why, input) => {
    expect(deriveUnitName({ ...multi, ...input })).toEqual({ error: "not_derivable" });
  });
});
