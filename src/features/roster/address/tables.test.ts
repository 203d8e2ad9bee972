import { describe, expect, it } from "vitest";
import { DESIGNATOR_ABBREVIATION, STRONG_DESIGNATORS, VALUELESS_DESIGNATORS } from "./designators";
import { DIRECTIONAL_ABBREVIATION, DIRECTIONAL_WORD } from "./directionals";
import { ordinalKey, ordinalSuffix } from "./ordinals";
import { SUFFIX_ABBREVIATION, SUFFIX_WORD } from "./suffixes";

describe("street suffix table (USPS Pub 28 Appendix C1)", () => {
  it.each([
    ["STREET", "ST"],
    ["STR", "ST"],
    ["STRT", "ST"],
    ["ST", "ST"],
    ["AVENUE", "AVE"],
    ["AV", "AVE"],
    ["AVEN", "AVE"],
    ["AVNUE", "AVE"],
    ["BOULEVARD", "BLVD"],
    ["BOUL", "BLVD"],
    ["DRIVE", "DR"],
    ["DRV", "DR"],
    ["COURT", "CT"],
    ["LANE", "LN"],
    ["ROAD", "RD"],
    ["PLACE", "PL"],
    ["TERRACE", "TER"],
    ["TERR", "TER"],
    ["CIRCLE", "CIR"],
    ["CRCLE", "CIR"],
    ["PARKWAY", "PKWY"],
    ["PARKWAYS", "PKWY"],
    ["PKY", "PKWY"],
    ["HIGHWAY", "HWY"],
    ["HIWAY", "HWY"],
    ["EXPRESSWAY", "EXPY"],
    ["CROSSING", "XING"],
    ["CENTRE", "CTR"],
    ["HEIGHTS", "HTS"],
    ["HT", "HTS"],
    ["MEADOWS", "MDWS"],
    ["MDW", "MDW"],
    ["PARKS", "PARK"],
    ["TRAILS", "TRL"],
    ["WY", "WAY"],
    ["ANEX", "ANX"],
    ["ANNEX", "ANX"],
    ["KEY", "KY"],
    ["VIADUCT", "VIA"],
    ["STRAVENUE", "STRA"],
    ["TURNPIKE", "TPKE"],
  ])("%s → %s", (spelling, abbreviation) => {
    expect(SUFFIX_ABBREVIATION.get(spelling)).toBe(abbreviation);
  });

  it("holds the whole appendix: about two hundred suffixes and five hundred spellings", () => {
    expect(SUFFIX_WORD.size).toBeGreaterThanOrEqual(195);
    expect(SUFFIX_ABBREVIATION.size).toBeGreaterThanOrEqual(480);
  });

  it("spells every abbreviation out as a word that abbreviates back to it", () => {
    for (const [abbreviation, word] of SUFFIX_WORD) {
      expect(SUFFIX_ABBREVIATION.get(word), word).toBe(abbreviation);
      expect(SUFFIX_ABBREVIATION.get(abbreviation), abbreviation).toBe(abbreviation);
    }
    expect(SUFFIX_WORD.get("AVE")).toBe("AVENUE");
    expect(SUFFIX_WORD.get("PKWY")).toBe("PARKWAY");
    expect(SUFFIX_WORD.get("ANX")).toBe("ANNEX");
  });

  it("maps only to standard abbreviations", () => {
    for (const abbreviation of SUFFIX_ABBREVIATION.values()) expect(SUFFIX_WORD.has(abbreviation), abbreviation).toBe(true);
  });

  it("never mistakes a directional or a unit designator for a suffix spelling", () => {
    for (const directional of DIRECTIONAL_ABBREVIATION.keys()) expect(SUFFIX_ABBREVIATION.has(directional), directional).toBe(false);
    for (const designator of ["APT", "APARTMENT", "STE", "SUITE", "UNIT", "RM", "BLDG", "FL", "LOT", "#"]) {
      expect(SUFFIX_ABBREVIATION.has(designator), designator).toBe(false);
    }
  });
});

describe("unit designator table (USPS Pub 28 Appendix C2)", () => {
  it("lists the twenty-four C2 designators by name and abbreviation", () => {
    const abbreviations = new Set(DESIGNATOR_ABBREVIATION.values());
    expect([...abbreviations].sort()).toEqual(
      [
        "APT",
        "BLDG",
        "BSMT",
        "DEPT",
        "FL",
        "FRNT",
        "HNGR",
        "KEY",
        "LBBY",
        "LOT",
        "LOWR",
        "OFC",
        "PH",
        "PIER",
        "REAR",
        "RM",
        "SIDE",
        "SLIP",
        "SPC",
        "STE",
        "STOP",
        "TRLR",
        "UNIT",
        "UPPR",
      ].sort(),
    );
    expect(DESIGNATOR_ABBREVIATION.get("APARTMENT")).toBe("APT");
    expect(DESIGNATOR_ABBREVIATION.get("PENTHOUSE")).toBe("PH");
    expect(DESIGNATOR_ABBREVIATION.get("SUITE")).toBe("STE");
    expect(DESIGNATOR_ABBREVIATION.get("COTTAGE")).toBeUndefined();
    expect(DESIGNATOR_ABBREVIATION.get("LOFT")).toBeUndefined();
  });

  it("marks the nine designators that need no value", () => {
    expect([...VALUELESS_DESIGNATORS].sort()).toEqual(["BSMT", "FRNT", "LBBY", "LOWR", "OFC", "PH", "REAR", "SIDE", "UPPR"]);
    for (const strong of STRONG_DESIGNATORS) expect(VALUELESS_DESIGNATORS.has(strong)).toBe(false);
  });
});

describe("directionals (USPS Pub 28 Appendix B) and ordinals", () => {
  it.each([
    ["NORTH", "N", "NORTH"],
    ["SOUTHWEST", "SW", "SOUTHWEST"],
    ["NE", "NE", "NORTHEAST"],
    ["W", "W", "WEST"],
  ])("%s → %s, shown as %s", (spelling, abbreviation, word) => {
    expect(DIRECTIONAL_ABBREVIATION.get(spelling)).toBe(abbreviation);
    expect(DIRECTIONAL_WORD.get(abbreviation)).toBe(word);
  });

  it.each([
    ["FIRST", "1ST"],
    ["SECOND", "2ND"],
    ["THIRD", "3RD"],
    ["FIFTH", "5TH"],
    ["ELEVENTH", "11TH"],
    ["TWELFTH", "12TH"],
    ["TWENTIETH", "20TH"],
    ["TWENTY-FIRST", "21ST"],
    ["FORTY-SECOND", "42ND"],
    ["NINETY-NINTH", "99TH"],
    ["5TH", "5TH"],
    ["103RD", "103RD"],
    ["MAIN", null],
    ["5", null],
  ])("ordinal %s → %s", (key, canonical) => {
    expect(ordinalKey(key)).toBe(canonical);
  });

  it.each([
    [1, "ST"],
    [2, "ND"],
    [3, "RD"],
    [4, "TH"],
    [11, "TH"],
    [12, "TH"],
    [13, "TH"],
    [21, "ST"],
    [111, "TH"],
    [122, "ND"],
  ])("suffix of %i is %s", (n, suffix) => {
    expect(ordinalSuffix(n)).toBe(suffix);
  });
});
