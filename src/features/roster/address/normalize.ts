import { memoized } from "./memo";
import { streetKeys } from "./street";
import { readStreetLine } from "./street-line";

/**
 * spec Property rules, matching step 3: the normalized street line that, with the owner, building_name
 * and zip, identifies a building. Unit designators and their values (and any text after the street)
 * are stripped; case is folded and punctuation dropped; whitespace collapses; suffixes become their
 * Pub 28 C1 abbreviation and directionals their Appendix B abbreviation, each only in its own position;
 * a single ordinal name becomes digits. So "123 N. Main St Apt 4" and "123 North Main Street" both give
 * "123 N MAIN ST", while "10 Court Ave" keeps its name COURT.
 */
export const normalizeStreetLine = memoized((line: string): string => streetKeys(readStreetLine(line).street).join(" "));
