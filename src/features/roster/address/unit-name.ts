import { DESIGNATOR_ABBREVIATION, NUMBER_SIGN } from "./designators";
import { streetKeys } from "./street";
import { readStreetLine, type UnitDesignator, unitDesignatorOf } from "./street-line";
import { hasDigit, joinText, type Token, tokenize } from "./tokens";

export type UnitNameInput = {
  line_one?: string | null;
  line_two?: string | null;
  /** The building's established street (its stored line one), e.g. "123 Main Street". */
  buildingStreet?: string | null;
  pms_unit_id?: string | null;
  /** The building type holds one unit (`single_family`, `garden_community`). */
  singleUnitBuilding: boolean;
};

export type UnitNameResult = { name: string } | { error: "not_derivable" };

/** "Standard designator words are dropped; nonstandard ones are kept verbatim": Apt 4 → 4, Rear → Rear. */
const nameOfDesignator = (designator: UnitDesignator): string => designator.value ?? designator.label;

/** Unit text as written, without a leading "#" or standard designator word: "# 4B" → "4B", "Cottage 3" stays. */
function withoutDesignatorWord(tokens: Token[]): string {
  const words = tokens.filter((token) => token.key !== NUMBER_SIGN);
  const dropFirst = words.length > 1 && DESIGNATOR_ABBREVIATION.has(words[0].key);
  return joinText(dropFirst ? words.slice(1) : words);
}

/**
 * The line with the building's street removed: the building street's canonical words must start the
 * line's (so "123 MAIN ST 0113" minus "123 Main Street" is "0113"); what follows is the name.
 */
function remainderAfterStreet(line: string, buildingStreet: string): string | null {
  const building = streetKeys(readStreetLine(buildingStreet).street);
  const own = readStreetLine(line);
  const ownKeys = streetKeys(own.street);
  if (!building.length || building.some((key, i) => ownKeys[i] !== key)) return null;
  const remainder = [...own.street.parts.slice(building.length).map((part) => part.token), ...own.extra];
  return withoutDesignatorWord(remainder) || null;
}

/** A line_two that names a unit: a designator ("Apt 7" → 7, "Unit C" → C), or a word with a digit or a single word kept verbatim ("Cottage 3", "4B"). */
function nameFromLineTwo(lineTwo: string): string | null {
  const tokens = tokenize(lineTwo);
  const designator = unitDesignatorOf(tokens);
  if (designator) return nameOfDesignator(designator);
  if (tokens.length === 1 || tokens.some((token) => hasDigit(token.key))) return withoutDesignatorWord(tokens) || null;
  return null;
}

/** spec Unit rules, name derivation when `name` is absent, in order; the first step that yields a name wins. */
export function deriveUnitName(input: UnitNameInput): UnitNameResult {
  const lineOne = input.line_one?.trim() ?? "";

  // spec: Unit rules, name derivation step 1: the designator in the unit's own street line ("123 Main St Apt 4B" → 4B).
  const designator = lineOne ? readStreetLine(lineOne).designator : null;
  if (designator) return { name: nameOfDesignator(designator) };

  // spec: Unit rules, name derivation step 2: the street line with the building's established street removed.
  const buildingStreet = input.buildingStreet?.trim();
  const remainder = lineOne && buildingStreet ? remainderAfterStreet(lineOne, buildingStreet) : null;
  if (remainder) return { name: remainder };

  // spec: Unit rules, name derivation step 3: a designator in line_two.
  const second = input.line_two?.trim() ? nameFromLineTwo(input.line_two) : null;
  if (second) return { name: second };

  // spec: Unit rules, name derivation step 4: the pms_unit_id, as sent.
  const pmsUnitId = input.pms_unit_id?.trim();
  if (pmsUnitId) return { name: pmsUnitId };

  // spec: Unit rules, name derivation step 5: a single-unit building defaults to the name 1.
  if (input.singleUnitBuilding) return { name: "1" };

  // spec: Unit rules: nothing derivable in a multi-unit building fails the item (UNIT_NAME_NOT_DERIVABLE).
  return { error: "not_derivable" };
}
