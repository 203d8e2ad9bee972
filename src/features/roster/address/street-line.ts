import { BUILDING_DESIGNATOR, DESIGNATOR_ABBREVIATION, NUMBER_SIGN, STRONG_DESIGNATORS, VALUELESS_DESIGNATORS } from "./designators";
import { parseStreet, type Street } from "./street";
import { SUFFIX_ABBREVIATION } from "./suffixes";
import { hasDigit, joinText, type Token, tokenize } from "./tokens";

/**
 * A secondary unit designator (USPS Pub 28 Appendix C2, or "#"): `word` is the approved abbreviation
 * (null for "#"), `label` the designator as written, `value` the unit as written ("4B"), null for a
 * designator that stands alone ("Rear", "Penthouse").
 */
export type UnitDesignator = { word: string | null; label: string; value: string | null };

/** A street line split in three: the street, its unit designator, and any other text after the street. */
export type StreetLine = { street: string; designator: UnitDesignator | null; extra: string | null };

type Group = { designator: UnitDesignator; start: number; end: number };

/** A value a designator takes: a digit or a single letter ("4B", "C"), or after APT/STE/UNIT/... any word but a street or designator word. */
function isUnitValue(word: string | null, value: Token | undefined): value is Token {
  if (!value || value.key === NUMBER_SIGN) return false;
  if (hasDigit(value.key) || /^[A-Z]$/.test(value.key)) return true;
  const strong = word === null || STRONG_DESIGNATORS.has(word);
  return strong && !SUFFIX_ABBREVIATION.has(value.key) && !DESIGNATOR_ABBREVIATION.has(value.key);
}

/** The designator group starting at `start`: "Apt 4", "Unit # 3", "# 12", or a lone "Rear" that ends the line. */
function readGroup(tokens: Token[], start: number, standalone: boolean): Group | null {
  const first = tokens[start];
  if (!first) return null;
  const word = first.key === NUMBER_SIGN ? null : DESIGNATOR_ABBREVIATION.get(first.key);
  if (word === undefined) return null;
  const at = word !== null && tokens[start + 1]?.key === NUMBER_SIGN ? start + 2 : start + 1;
  const value = tokens[at];
  if (isUnitValue(word, value)) return { designator: { word, label: joinText([first]), value: joinText([value]) }, start, end: at + 1 };
  const alone = word !== null && VALUELESS_DESIGNATORS.has(word) && (start + 1 === tokens.length || readGroup(tokens, start + 1, true) !== null);
  return alone && standalone ? { designator: { word, label: joinText([first]), value: null }, start, end: start + 1 } : null;
}

/** The designator groups from `from` on, one after the other ("Bldg 2 Apt 4"). */
function readGroups(tokens: Token[], from: number): Group[] {
  const groups: Group[] = [];
  for (let at = from, group = readGroup(tokens, at, true); group; group = readGroup(tokens, at, true)) {
    groups.push(group);
    at = group.end;
  }
  return groups;
}

/**
 * The first place a designator starts: after the house number and at least one street word (a lone
 * designator such as "Rear" after two street words), so "123 Unit Rd" and "5 West Side" keep their names.
 */
function designatorStart(tokens: Token[]): number {
  const numbered = /^\d/.test(tokens[0]?.key ?? "");
  const withValue = numbered ? 2 : 1;
  for (let i = withValue; i < tokens.length; i++) {
    if (readGroup(tokens, i, i >= withValue + 1) !== null) return i;
  }
  return -1;
}

/** The unit's designator among several: the first with a value that is not a building ("Bldg 2 Apt 4" → Apt 4). */
function unitGroup(groups: Group[]): Group | undefined {
  const valued = groups.filter((group) => group.designator.value !== null);
  return valued.find((group) => group.designator.word !== BUILDING_DESIGNATOR) ?? valued[0] ?? groups[0];
}

/**
 * The unit designator of a line that holds only a unit (a `line_two` such as "Apt 7", "Bldg 2 Unit C",
 * "#5", "Rear"). A designator without a value counts only as the first word ("Attn Leasing Office" has none).
 */
export function unitDesignatorOf(tokens: Token[]): UnitDesignator | null {
  const index = tokens.findIndex((_, i) => readGroup(tokens, i, i === 0) !== null);
  return index < 0 ? null : (unitGroup(readGroups(tokens, index))?.designator ?? null);
}

export type ReadStreetLine = { tokens: Token[]; street: Street; designator: UnitDesignator | null; extra: Token[] };

/** spec Property rules, matching step 3: a street line as its street, unit designator and other text. */
export function readStreetLine(line: string): ReadStreetLine {
  const tokens = tokenize(line);
  const start = designatorStart(tokens);
  const groups = start < 0 ? [] : readGroups(tokens, start);
  const chosen = unitGroup(groups);
  const street = parseStreet(start < 0 ? tokens : tokens.slice(0, start));
  const after = start < 0 ? [] : tokens.slice(start).filter((_, i) => !chosen || i + start < chosen.start || i + start >= chosen.end);
  const extra = [...street.rest, ...after].filter((token) => token.key !== NUMBER_SIGN);
  return { tokens, street, designator: chosen?.designator ?? null, extra };
}

/**
 * Splits a street line into the street as written, its unit designator and any other text:
 * "123 Main St., Apt 4B" → street "123 Main St.", designator {APT, "Apt", "4B"}, extra null;
 * "9 Elm St Cottage 3" → street "9 Elm St", no designator, extra "Cottage 3".
 */
export function parseStreetLine(line: string): StreetLine {
  const { street, designator, extra } = readStreetLine(line);
  const streetText = street.parts.map((part) => part.token.text).join(" ");
  return { street: streetText, designator, extra: extra.length ? joinText(extra) : null };
}
