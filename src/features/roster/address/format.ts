import { DIRECTIONAL_WORD } from "./directionals";
import { isNumericOrdinal } from "./ordinals";
import type { Street, StreetPart } from "./street";
import { readStreetLine } from "./street-line";
import { SUFFIX_WORD } from "./suffixes";

/** Road-system initials kept in capitals: "US Highway 1", "FM 1960". */
const UPPER_CASE_WORDS: ReadonlySet<string> = new Set(["US", "FM", "CR", "SR", "RR", "HC"]);

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** "main" → "Main", "o'neil" → "O'Neil", "mcdonald" → "McDonald", "wilkes-barre" → "Wilkes-Barre", "5TH" → "5th". */
export function titleCase(text: string): string {
  const word = text.replace(/\./g, "");
  if (UPPER_CASE_WORDS.has(word.toUpperCase())) return word.toUpperCase();
  return word
    .split("-")
    .map((piece) => {
      if (/^\d/.test(piece)) return isNumericOrdinal(piece.toUpperCase()) ? piece.toLowerCase() : piece.toUpperCase();
      const cased = capitalize(piece);
      if (/^[OD]'\p{L}/u.test(cased)) return cased.slice(0, 2) + capitalize(cased.slice(2));
      if (/^Mc\p{L}{2}/u.test(cased)) return `Mc${capitalize(cased.slice(2))}`;
      return cased;
    })
    .join("-");
}

function displayPart(part: StreetPart): string {
  switch (part.role) {
    case "predirectional":
    case "postdirectional":
      return capitalize(DIRECTIONAL_WORD.get(part.key) ?? part.key);
    case "suffix":
    case "roadway":
      return capitalize(SUFFIX_WORD.get(part.key) ?? part.key);
    case "ordinal":
      return part.key.toLowerCase();
    case "number":
      return part.token.text.replace(/\./g, "").toUpperCase();
    case "name":
      return titleCase(part.token.text);
  }
}

/** The display form of a parsed street (see formatStreet). */
export const displayStreet = (street: Street): string => street.parts.map(displayPart).join(" ");

/**
 * spec Property rules, Address derivation: "in title case with suffixes expanded". The street of a line
 * (designators and unit text dropped), title case, suffix, directionals and numbered roadways spelled
 * out, ordinal names as digits: "123 n main st apt 4" → "123 North Main Street", "42 FIFTH AVE" →
 * "42 5th Avenue". Its match key is the key of the line it came from.
 */
export function formatStreet(line: string): string {
  return displayStreet(readStreetLine(line).street);
}
