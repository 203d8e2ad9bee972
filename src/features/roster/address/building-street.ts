import { displayStreet } from "./format";
import { hasHouseNumber, type Street, streetKeys } from "./street";
import { readStreetLine } from "./street-line";

/** The longest run of keys every list starts with. */
function commonPrefix(lists: string[][]): string[] {
  const [first, ...others] = lists;
  let length = first.length;
  for (const list of others) {
    let n = 0;
    while (n < length && n < list.length && list[n] === first[n]) n++;
    length = n;
  }
  return first.slice(0, length);
}

/** The most frequent text; ties go to the first in code-point order, so the answer ignores line order. */
function mostCommon(texts: string[]): string {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  return [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))[0][0];
}

/**
 * spec Property rules, Address derivation: "the building street is derived as the portion shared across
 * the units' cleaned addresses, in title case with suffixes expanded".
 * - Cleaned: each line reduced to its canonical street (normalizeStreetLine's words), so designators,
 *   unit text and spelling differences do not count: "123 Main St Apt 1", "123 Main Street #2" and
 *   "123 MAIN ST UNIT 3" share "123 Main Street".
 * - Portion shared: the word-by-word common prefix of those streets. It must hold a house number and a
 *   street name, and be the whole street of at least one unit, so a street cut in half ("123 Main"
 *   from "123 Main St" and "123 Main Ave") is never derived. Otherwise null (nothing shared).
 * - Display: the formatted form of the units whose street is exactly the shared portion (formatStreet);
 *   when their spellings differ (O'Neil, ONeil), the most frequent wins, so line order does not matter.
 */
export function deriveBuildingStreet(unitLines: string[]): string | null {
  const streets: Street[] = unitLines.filter((line) => line.trim()).map((line) => readStreetLine(line).street);
  if (!streets.length) return null;
  const keys = streets.map(streetKeys);
  const shared = commonPrefix(keys);
  const complete = streets.filter((_, i) => keys[i].length === shared.length);
  const [sample] = complete;
  if (!sample || !hasHouseNumber(sample) || !sample.parts.slice(0, shared.length).some((part) => part.role !== "number")) return null;
  return mostCommon(complete.map(displayStreet));
}
