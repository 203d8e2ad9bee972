/**
 * Directionals, USPS Publication 28 Appendix B (spec Property rules, matching step 3): every spelling →
 * the standard abbreviation, and the abbreviation → the word shown on derived building streets.
 */
const DIRECTIONALS: ReadonlyArray<readonly [word: string, abbreviation: string]> = [
  ["NORTH", "N"],
  ["SOUTH", "S"],
  ["EAST", "E"],
  ["WEST", "W"],
  ["NORTHEAST", "NE"],
  ["NORTHWEST", "NW"],
  ["SOUTHEAST", "SE"],
  ["SOUTHWEST", "SW"],
];

export const DIRECTIONAL_ABBREVIATION: ReadonlyMap<string, string> = new Map(
  DIRECTIONALS.flatMap(([word, abbreviation]) => [
    [word, abbreviation],
    [abbreviation, abbreviation],
  ]),
);

export const DIRECTIONAL_WORD: ReadonlyMap<string, string> = new Map(DIRECTIONALS.map(([word, abbreviation]) => [abbreviation, word]));
