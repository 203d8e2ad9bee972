import { describe, expect, it } from "vitest";
import { parseStreetLine, type StreetLine } from "./street-line";

const unit = (word: string | null, label: string, value: string | null) => ({ word, label, value });

describe("parseStreetLine (spec Property rules step 3: unit designators per USPS Pub 28 C2 and #)", () => {
  it.each<[string, StreetLine]>([
    ["123 Main St", { street: "123 Main St", designator: null, extra: null }],
    ["123 Main St Apt 4", { street: "123 Main St", designator: unit("APT", "Apt", "4"), extra: null }],
    ["123 Main St Apt. 4B", { street: "123 Main St", designator: unit("APT", "Apt", "4B"), extra: null }],
    ["123 Main St, Apt 4B", { street: "123 Main St", designator: unit("APT", "Apt", "4B"), extra: null }],
    ["123 Main St #12", { street: "123 Main St", designator: unit(null, "#", "12"), extra: null }],
    ["123 Main St # 12", { street: "123 Main St", designator: unit(null, "#", "12"), extra: null }],
    ["123 Main St Unit #3", { street: "123 Main St", designator: unit("UNIT", "Unit", "3"), extra: null }],
    ["123 Main St Ste 200", { street: "123 Main St", designator: unit("STE", "Ste", "200"), extra: null }],
    ["500 Oak Ave Suite 200", { street: "500 Oak Ave", designator: unit("STE", "Suite", "200"), extra: null }],
    ["123 Main St APT4", { street: "123 Main St", designator: unit("APT", "APT", "4"), extra: null }],
    ["123 Main St apt4b", { street: "123 Main St", designator: unit("APT", "apt", "4b"), extra: null }],
    ["123 Main St Apartment 7", { street: "123 Main St", designator: unit("APT", "Apartment", "7"), extra: null }],
    ["123 Main St Unit C", { street: "123 Main St", designator: unit("UNIT", "Unit", "C"), extra: null }],
    ["123 Main St Unit E", { street: "123 Main St", designator: unit("UNIT", "Unit", "E"), extra: null }],
    ["123 Main St Rm 12", { street: "123 Main St", designator: unit("RM", "Rm", "12"), extra: null }],
    ["123 Main St Fl 3", { street: "123 Main St", designator: unit("FL", "Fl", "3"), extra: null }],
    ["77 Park Rd Lot 14", { street: "77 Park Rd", designator: unit("LOT", "Lot", "14"), extra: null }],
    ["77 Park Rd Trlr 9", { street: "77 Park Rd", designator: unit("TRLR", "Trlr", "9"), extra: null }],
    ["77 Park Rd Space 9", { street: "77 Park Rd", designator: unit("SPC", "Space", "9"), extra: null }],
    ["1 Harbor Way Slip 22", { street: "1 Harbor Way", designator: unit("SLIP", "Slip", "22"), extra: null }],
    ["123 Main St PH 2", { street: "123 Main St", designator: unit("PH", "PH", "2"), extra: null }],
    ["123 Main St Rear", { street: "123 Main St", designator: unit("REAR", "Rear", null), extra: null }],
    ["123 Main St Penthouse", { street: "123 Main St", designator: unit("PH", "Penthouse", null), extra: null }],
    ["123 Main St Upper", { street: "123 Main St", designator: unit("UPPR", "Upper", null), extra: null }],
    ["123 Broadway #4", { street: "123 Broadway", designator: unit(null, "#", "4"), extra: null }],
    ["123 Broadway Apt 4", { street: "123 Broadway", designator: unit("APT", "Apt", "4"), extra: null }],
    ["123 Main St Bldg 2 Apt 4", { street: "123 Main St", designator: unit("APT", "Apt", "4"), extra: "Bldg 2" }],
    ["123 Main St Bldg 2", { street: "123 Main St", designator: unit("BLDG", "Bldg", "2"), extra: null }],
    ["123 Main St Apt 4, Springfield", { street: "123 Main St", designator: unit("APT", "Apt", "4"), extra: "Springfield" }],
    ["9 Elm Street Cottage 3", { street: "9 Elm Street", designator: null, extra: "Cottage 3" }],
    ["9 Elm St 4B", { street: "9 Elm St", designator: null, extra: "4B" }],
    ["100 Broadway 4B", { street: "100 Broadway", designator: null, extra: "4B" }],
    ["123 N. Main St. Apt. 4", { street: "123 N. Main St.", designator: unit("APT", "Apt", "4"), extra: null }],
    ["  123   Main  St   Apt   4  ", { street: "123 Main St", designator: unit("APT", "Apt", "4"), extra: null }],
  ])("%j", (line, parsed) => {
    expect(parseStreetLine(line)).toEqual(parsed);
  });

  it.each([
    ["10 Unit Rd"],
    ["5 Suite Dr"],
    ["12 Pier Ave"],
    ["123 Old Key Rd"],
    ["5 West Side"],
    ["5 Lower Front"],
    ["8 Lot Ln"],
    ["123 Oak Room Ave"],
    ["123 Main St #"],
    ["123 Main St Apt"],
  ])("%j has no unit designator (a designator word in a street name, or one without a value)", (line) => {
    expect(parseStreetLine(line).designator).toBeNull();
  });

  it("keeps the street name when a designator word is part of it", () => {
    expect(parseStreetLine("10 Unit Rd Apt 2")).toEqual({ street: "10 Unit Rd", designator: unit("APT", "Apt", "2"), extra: null });
    expect(parseStreetLine("123 Ocean Key Ste 4").street).toBe("123 Ocean Key");
  });
});
