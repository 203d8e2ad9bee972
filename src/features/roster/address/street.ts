import { NUMBER_SIGN } from "./designators";
import { DIRECTIONAL_ABBREVIATION } from "./directionals";
import { isNumericOrdinal, ordinalKey } from "./ordinals";
import { NUMBERED_ROADWAYS, ROAD_SYSTEMS, SUFFIX_ABBREVIATION } from "./suffixes";
import { hasDigit, type Token } from "./tokens";

export type StreetRole = "number" | "predirectional" | "name" | "ordinal" | "roadway" | "suffix" | "postdirectional";

/** One word of a street with its canonical key: "Street" → ST (suffix), "N." → N, "Fifth" → 5TH. */
export type StreetPart = { token: Token; key: string; role: StreetRole };

/** The street of a street line, word by word, and the words after it (unit text such as "4B"). */
export type Street = { parts: StreetPart[]; rest: Token[] };

const FRACTION = /^\d+\/\d+$/;
const BARE_NUMBER = /^\d+$/;

const suffixOf = (token: Token | undefined): string | undefined => (token ? SUFFIX_ABBREVIATION.get(token.key) : undefined);
const directionalOf = (token: Token | undefined): string | undefined => (token ? DIRECTIONAL_ABBREVIATION.get(token.key) : undefined);

/** "Route 66", "US Highway 1", "County Road 12": a roadway word with its number is the street's name. */
function isNumberedRoadway(words: Token[], i: number): boolean {
  const abbreviation = suffixOf(words[i]);
  if (!abbreviation || !NUMBERED_ROADWAYS.has(abbreviation) || !BARE_NUMBER.test(words[i + 1]?.key ?? "")) return false;
  return i === 0 || ROAD_SYSTEMS.has(words[i - 1].key);
}

/**
 * The suffix is the last C1 word that follows at least one name word, so a suffix word that starts
 * the name keeps its place: "123 Street Rd", "10 Court Ave", "5 Avenue N".
 */
function findSuffix(words: Token[]): number {
  for (let i = words.length - 1; i >= 1; i--) if (suffixOf(words[i]) && !isNumberedRoadway(words, i)) return i;
  return -1;
}

/** Without a suffix, trailing numbers are unit text ("100 Broadway 4B"), unless a road word precedes them. */
function endWithoutSuffix(words: Token[]): number {
  let end = words.length;
  while (end > 1 && hasDigit(words[end - 1].key) && !isNumericOrdinal(words[end - 1].key) && !suffixOf(words[end - 2])) end--;
  return end;
}

/**
 * spec Property rules, matching step 3: the structure of a street (designators already removed):
 * house number (with a fraction such as "1/2"), predirectional, name, suffix, postdirectional.
 * - A suffix counts only in suffix position (see findSuffix); words after it and its postdirectional
 *   are unit text ("9 Elm St 4B", "9 Elm St Cottage 3").
 * - A directional counts right after the house number or as the street's last word, and only when a
 *   name word remains: "123 N Main St" has a predirectional, "123 N St" is the street named N.
 * - A name that is a single ordinal is canonical as digits: "Fifth Ave" ≡ "5th Ave".
 */
export function parseStreet(tokens: Token[]): Street {
  const words = tokens.filter((token) => token.key !== NUMBER_SIGN);
  const number: StreetPart[] = [];
  if (words.length > 1 && /^\d/.test(words[0].key)) {
    number.push({ token: words[0], key: words[0].key, role: "number" });
    if (words.length > 2 && FRACTION.test(words[1].key)) number.push({ token: words[1], key: words[1].key, role: "number" });
  }
  const rest = words.slice(number.length);

  let nameEnd: number;
  let restStart: number;
  let suffix: StreetPart | null = null;
  let post: StreetPart | null = null;
  const suffixAt = findSuffix(rest);
  if (suffixAt >= 0) {
    suffix = { token: rest[suffixAt], key: suffixOf(rest[suffixAt]) ?? "", role: "suffix" };
    nameEnd = suffixAt;
    restStart = suffixAt + 1;
    const after = directionalOf(rest[restStart]);
    if (after) post = { token: rest[restStart++], key: after, role: "postdirectional" };
  } else {
    restStart = endWithoutSuffix(rest);
    nameEnd = restStart;
    const last = directionalOf(rest[nameEnd - 1]);
    // "5 Avenue N" is the street named Avenue N; "5 Broadway N" is Broadway, north.
    if (last && nameEnd >= 2 && !(nameEnd === 2 && suffixOf(rest[0]))) post = { token: rest[--nameEnd], key: last, role: "postdirectional" };
  }

  let nameStart = 0;
  let pre: StreetPart | null = null;
  const first = directionalOf(rest[0]);
  if (first && nameEnd > 1) {
    pre = { token: rest[0], key: first, role: "predirectional" };
    nameStart = 1;
  }

  const name: StreetPart[] = [];
  for (let i = nameStart; i < nameEnd; i++) {
    const token = rest[i];
    const ordinal = nameEnd - nameStart === 1 ? ordinalKey(token.key) : null;
    if (isNumberedRoadway(rest, i)) name.push({ token, key: suffixOf(token) ?? token.key, role: "roadway" });
    else if (ordinal) name.push({ token, key: ordinal, role: "ordinal" });
    else name.push({ token, key: token.key, role: "name" });
  }

  const parts = [...number, ...(pre ? [pre] : []), ...name, ...(suffix ? [suffix] : []), ...(post ? [post] : [])];
  return { parts, rest: rest.slice(restStart) };
}

/** The canonical words of a street, the match key's content. */
export const streetKeys = (street: Street): string[] => street.parts.map((part) => part.key);

/** Whether the street starts with a house number. */
export const hasHouseNumber = (street: Street): boolean => street.parts[0]?.role === "number";
