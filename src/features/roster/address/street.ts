import { UNIT_DESIGNATORS, VALUELESS_DESIGNATORS } from "./designators";
import { DIRECTIONAL_ABBREVIATION, DIRECTIONAL_WORD, SUFFIX_ABBREVIATION, SUFFIX_WORD } from "./suffixes";

/** A word of a street line: as written, and its case- and punctuation-folded form. */
export type Token = { text: string; key: string };

const GLUED_DESIGNATOR = /^(APT|APARTMENT|UNIT|STE|SUITE|RM|ROOM|BLDG|FL|LOT|SPC|TRLR|#)(\d[\w-]*)$/;

export function tokenize(line: string): Token[] {
  return line
    .replace(/#/g, " # ")
    .replace(/[,;]/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((text): Token[] => {
      const key = text.toUpperCase().replace(/[.]/g, "");
      const glued = GLUED_DESIGNATOR.exec(key);
      if (glued)
        return [
          { text: text.slice(0, glued[1].length), key: glued[1] },
          { text: text.slice(glued[1].length), key: glued[2] },
        ];
      return key ? [{ text: text.replace(/\.$/, ""), key }] : [];
    });
}

/**
 * Splits a street line at its first unit designator (Pub 28 C2 word or "#", after the house number
 * and street name): `123 Main St Apt 4B` → street `123 Main St`, designator APT, value `4B`.
 */
export function splitDesignator(tokens: Token[]): { street: Token[]; word: string | null; value: Token[] } | null {
  for (let i = 2; i < tokens.length; i++) {
    const word = UNIT_DESIGNATORS.get(tokens[i].key);
    if (!word) continue;
    const value = tokens.slice(i + 1).filter((token) => token.key !== "#");
    if (value.length === 0 && !VALUELESS_DESIGNATORS.has(word)) continue;
    return { street: tokens.slice(0, i), word, value };
  }
  return null;
}

/**
 * Canonical tokens of the street part: suffixes → Pub 28 abbreviation and directionals → their
 * abbreviation, each only in its own position (a suffix after the street name; a directional right
 * after the house number or right after the suffix), so "10 Court Ave" keeps its name "Court".
 * Anything after the suffix and its trailing directional is unit text and dropped.
 */
export function canonicalStreet(tokens: Token[]): string[] {
  const street = splitDesignator(tokens)?.street ?? tokens;
  const keys = street.map((token) => token.key);
  const out: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const directional = DIRECTIONAL_ABBREVIATION.get(key);
    if (i === 1 && directional && keys.length > 3) {
      out.push(directional);
      continue;
    }
    const suffix = SUFFIX_ABBREVIATION.get(key);
    const nameStart = out.length > 1 && DIRECTIONAL_WORD.has(out[1]) ? 3 : 2;
    if (i >= nameStart && suffix) {
      out.push(suffix);
      const after = keys[i + 1] && DIRECTIONAL_ABBREVIATION.get(keys[i + 1]);
      if (after) out.push(after);
      return out;
    }
    out.push(ordinal(key));
  }
  return out;
}

const ORDINAL_WORDS: Record<string, string> = {
  FIRST: "1ST",
  SECOND: "2ND",
  THIRD: "3RD",
  FOURTH: "4TH",
  FIFTH: "5TH",
  SIXTH: "6TH",
  SEVENTH: "7TH",
  EIGHTH: "8TH",
  NINTH: "9TH",
  TENTH: "10TH",
};
const ordinal = (key: string) => ORDINAL_WORDS[key] ?? key;

/** spec Property rules step 3: the normalized street line that, with name and zip, identifies a building. */
export function normalizeStreetLine(line: string): string {
  return canonicalStreet(tokenize(line)).join(" ");
}

/** Display form of a canonical street: title case, suffix and directionals spelled out. */
export function formatStreet(line: string): string {
  const keys = canonicalStreet(tokenize(line));
  return keys
    .map((key, i) => {
      if (i > 0 && SUFFIX_WORD.has(key) && (i === keys.length - 1 || DIRECTIONAL_WORD.has(keys[keys.length - 1]))) return title(SUFFIX_WORD.get(key) as string);
      if (DIRECTIONAL_WORD.has(key) && (i === 1 || i === keys.length - 1)) return DIRECTIONAL_WORD.get(key) as string;
      return /^\d+(ST|ND|RD|TH)$/.test(key) ? key.toLowerCase() : title(key);
    })
    .join(" ");
}

const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/**
 * spec Property rules, Address derivation: the portion shared across the units' cleaned addresses
 * (token-wise common prefix of their canonical street parts), in title case with suffixes expanded.
 * Null when the lines share no house number and street name.
 */
export function deriveBuildingStreet(unitLines: string[]): string | null {
  const streets = unitLines.filter((line) => line.trim()).map((line) => canonicalStreet(tokenize(line)));
  if (!streets.length) return null;
  let shared = streets[0];
  for (const street of streets.slice(1)) {
    let n = 0;
    while (n < shared.length && n < street.length && shared[n] === street[n]) n++;
    shared = shared.slice(0, n);
  }
  if (shared.length < 2 || !/\d/.test(shared[0])) return null;
  return formatStreet(shared.join(" "));
}
