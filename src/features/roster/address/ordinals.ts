/**
 * Ordinal street names (spec Property rules, matching step 3, "where reasonable"): "Fifth" and "5th"
 * are one street. Spelled ordinals from first to ninety-ninth, hyphenated compounds included.
 */
const UNITS = ["FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH"];
const TEENS = ["TENTH", "ELEVENTH", "TWELFTH", "THIRTEENTH", "FOURTEENTH", "FIFTEENTH", "SIXTEENTH", "SEVENTEENTH", "EIGHTEENTH", "NINETEENTH"];
const TENS: ReadonlyArray<readonly [cardinal: string, ordinal: string]> = [
  ["TWENTY", "TWENTIETH"],
  ["THIRTY", "THIRTIETH"],
  ["FORTY", "FORTIETH"],
  ["FIFTY", "FIFTIETH"],
  ["SIXTY", "SIXTIETH"],
  ["SEVENTY", "SEVENTIETH"],
  ["EIGHTY", "EIGHTIETH"],
  ["NINETY", "NINETIETH"],
];

const SPELLED_ORDINALS: ReadonlyMap<string, number> = new Map([
  ...UNITS.map((word, i): [string, number] => [word, i + 1]),
  ...TEENS.map((word, i): [string, number] => [word, i + 10]),
  ...TENS.flatMap(([cardinal, ordinal], i): Array<[string, number]> => {
    const tens = (i + 2) * 10;
    return [[ordinal, tens], ...UNITS.map((unit, j): [string, number] => [`${cardinal}-${unit}`, tens + j + 1])];
  }),
]);

const NUMERIC_ORDINAL = /^\d+(ST|ND|RD|TH)$/;

/** "ST", "ND", "RD" or "TH" for a number (11th, 12th and 13th take "TH"). */
export function ordinalSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return "TH";
  return ["TH", "ST", "ND", "RD"][n % 10] ?? "TH";
}

/** The canonical key of an ordinal word ("FIFTH" → "5TH", "5TH" → "5TH"); null when not an ordinal. */
export function ordinalKey(key: string): string | null {
  if (NUMERIC_ORDINAL.test(key)) return key;
  const n = SPELLED_ORDINALS.get(key);
  return n === undefined ? null : `${n}${ordinalSuffix(n)}`;
}

export const isNumericOrdinal = (key: string): boolean => NUMERIC_ORDINAL.test(key);
