import { DESIGNATOR_ABBREVIATION, NUMBER_SIGN } from "./designators";
import { memoized } from "./memo";

/** A word of an address line: as written (separators removed) and its folded key. */
export type Token = { text: string; key: string };

/**
 * Case-folds and drops punctuation (spec Property rules, matching step 3): upper case, accents removed,
 * only letters, digits and the "-" or "/" inside a word kept ("St." → "ST", "O'Neil" → "ONEIL",
 * "37-12" and "1/2" stay). Words repeat across a batch's addresses, so each is folded once.
 */
export const foldKey = memoized((text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[^A-Z0-9/#-]/g, "")
    .replace(/^[-/]+|[-/]+$/g, ""),
);

/** A designator written against its value: "APT4", "Ste.200", "Unit-3B". */
const GLUED_DESIGNATOR = /^([A-Za-z]+)[.-]?(\d[\w-]*)$/;

/**
 * Splits a line into words: whitespace, commas and semicolons separate them, "#" is a word of its own
 * ("#12" → "#", "12"), and a Pub 28 designator glued to its value is split ("APT4" → "APT", "4").
 */
export function tokenize(line: string): Token[] {
  const words = line
    .replace(/#/g, ` ${NUMBER_SIGN} `)
    .split(/[\s,;]+/)
    .filter(Boolean);
  return words.flatMap((text): Token[] => {
    const glued = GLUED_DESIGNATOR.exec(text);
    if (glued && DESIGNATOR_ABBREVIATION.has(foldKey(glued[1]))) {
      return [
        { text: glued[1], key: foldKey(glued[1]) },
        { text: glued[2], key: foldKey(glued[2]) },
      ];
    }
    const key = foldKey(text);
    return key ? [{ text, key }] : [];
  });
}

export const hasDigit = (key: string): boolean => /\d/.test(key);

/** The words joined as written, trailing punctuation removed ("4B." → "4B"). */
export function joinText(tokens: Token[]): string {
  return tokens
    .map((token) => token.text)
    .join(" ")
    .replace(/[.:]+$/, "")
    .trim();
}
