import { describe, expect, it } from "vitest";
import { formatStreet, titleCase } from "./format";
import { normalizeStreetLine } from "./normalize";

describe("formatStreet (spec Property rules, Address derivation: title case, suffixes expanded)", () => {
  it.each([
    ["123 n main st", "123 North Main Street"],
    ["123 N. MAIN ST. APT 4", "123 North Main Street"],
    ["123 Main St Apt 4B", "123 Main Street"],
    ["500 oak av ste 200", "500 Oak Avenue"],
    ["77 SUNSET BLVD", "77 Sunset Boulevard"],
    ["42 FIFTH AVE", "42 5th Avenue"],
    ["42 5TH AVE", "42 5th Avenue"],
    ["10 w 23rd st", "10 West 23rd Street"],
    ["9 elm st n apt 2", "9 Elm Street North"],
    ["20 ne elm ct", "20 Northeast Elm Court"],
    ["10 court ave", "10 Court Avenue"],
    ["123 street rd", "123 Street Road"],
    ["123 n st", "123 N Street"],
    ["5 avenue n", "5 Avenue N"],
    ["5 broadway n", "5 Broadway North"],
    ["100 broadway 4b", "100 Broadway"],
    ["100 rte 66", "100 Route 66"],
    ["100 us hwy 1", "100 US Highway 1"],
    ["100 county rd 12", "100 County Road 12"],
    ["1 o'neil blvd", "1 O'Neil Boulevard"],
    ["1 MCDONALD DR", "1 McDonald Drive"],
    ["1 wilkes-barre pkwy", "1 Wilkes-Barre Parkway"],
    ["123a main st", "123A Main Street"],
    ["123 1/2 main st", "123 1/2 Main Street"],
    ["12 st charles ave", "12 St Charles Avenue"],
    ["9 Elm Street Cottage 3", "9 Elm Street"],
    ["", ""],
  ])("%j → %j", (line, display) => {
    expect(formatStreet(line)).toBe(display);
  });

  it.each([
    ["123 N. Main St Apt 4"],
    ["42 Fifth Ave"],
    ["123 N St"],
    ["5 Avenue N"],
    ["5 Broadway N"],
    ["100 US Hwy 1 Ste 5"],
    ["100 County Rd 12"],
    ["1 O'Neil Blvd."],
    ["10 Court Ave"],
    ["300 SW Pine Rd W"],
  ])("keeps the match key of %j (a derived street still matches its units)", (line) => {
    expect(normalizeStreetLine(formatStreet(line))).toBe(normalizeStreetLine(line));
  });
});

describe("titleCase", () => {
  it.each([
    ["MAIN", "Main"],
    ["main", "Main"],
    ["o'neil", "O'Neil"],
    ["D'ANGELO", "D'Angelo"],
    ["smith's", "Smith's"],
    ["mcdonald", "McDonald"],
    ["mac", "Mac"],
    ["wilkes-barre", "Wilkes-Barre"],
    ["5TH", "5th"],
    ["21st", "21st"],
    ["4b", "4B"],
    ["us", "US"],
    ["St.", "St"],
  ])("%j → %j", (word, cased) => {
    expect(titleCase(word)).toBe(cased);
  });
});
