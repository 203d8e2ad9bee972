/**
 * Secondary unit designators, USPS Publication 28 Appendix C2, plus "#" (spec Property rules, matching
 * step 3; Unit rules, name derivation). Rows: [name, approved abbreviation, needs a value]. C2 marks
 * nine designators that need no secondary range ("Rear", "Upper", "Penthouse", ...).
 */
const C2: ReadonlyArray<readonly [name: string, abbreviation: string, needsValue: boolean]> = [
  ["APARTMENT", "APT", true],
  ["BASEMENT", "BSMT", false],
  ["BUILDING", "BLDG", true],
  ["DEPARTMENT", "DEPT", true],
  ["FLOOR", "FL", true],
  ["FRONT", "FRNT", false],
  ["HANGAR", "HNGR", true],
  ["KEY", "KEY", true],
  ["LOBBY", "LBBY", false],
  ["LOT", "LOT", true],
  ["LOWER", "LOWR", false],
  ["OFFICE", "OFC", false],
  ["PENTHOUSE", "PH", false],
  ["PIER", "PIER", true],
  ["REAR", "REAR", false],
  ["ROOM", "RM", true],
  ["SIDE", "SIDE", false],
  ["SLIP", "SLIP", true],
  ["SPACE", "SPC", true],
  ["STOP", "STOP", true],
  ["SUITE", "STE", true],
  ["TRAILER", "TRLR", true],
  ["UNIT", "UNIT", true],
  ["UPPER", "UPPR", false],
];

/** The number sign, a designator without a word ("#12", "Unit #3"). */
export const NUMBER_SIGN = "#";

/** Name or abbreviation → approved abbreviation ("APARTMENT" → "APT", "APT" → "APT"). */
export const DESIGNATOR_ABBREVIATION: ReadonlyMap<string, string> = new Map(
  C2.flatMap(([name, abbreviation]) => [
    [name, abbreviation],
    [abbreviation, abbreviation],
  ]),
);

/** Designators that may stand alone, without a value ("123 Main St Rear"). */
export const VALUELESS_DESIGNATORS: ReadonlySet<string> = new Set(C2.filter(([, , needsValue]) => !needsValue).map(([, abbreviation]) => abbreviation));

/**
 * Designators that in a street line nearly always introduce a unit, so a word value is accepted after
 * them ("Apt PH", "Unit Ten"). Other designators also name streets and places ("Key", "Pier", "Lot",
 * "Stop"), so only a value with a digit or a single letter makes them designators.
 */
export const STRONG_DESIGNATORS: ReadonlySet<string> = new Set(["APT", "BLDG", "DEPT", "RM", "STE", "UNIT"]);

/** The building designator: when a line names a building and a unit, the unit's designator wins. */
export const BUILDING_DESIGNATOR = "BLDG";
