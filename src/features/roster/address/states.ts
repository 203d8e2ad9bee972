/**
 * The fifty US states, the District of Columbia and Puerto Rico: full name → USPS two-letter code
 * (spec Property: "`state` is a two-letter abbreviation or full name"). The other territories and
 * the military codes AA/AE/AP are refused.
 */
const STATES: ReadonlyArray<readonly [name: string, code: string]> = [
  ["ALABAMA", "AL"],
  ["ALASKA", "AK"],
  ["ARIZONA", "AZ"],
  ["ARKANSAS", "AR"],
  ["CALIFORNIA", "CA"],
  ["COLORADO", "CO"],
  ["CONNECTICUT", "CT"],
  ["DELAWARE", "DE"],
  ["FLORIDA", "FL"],
  ["GEORGIA", "GA"],
  ["HAWAII", "HI"],
  ["IDAHO", "ID"],
  ["ILLINOIS", "IL"],
  ["INDIANA", "IN"],
  ["IOWA", "IA"],
  ["KANSAS", "KS"],
  ["KENTUCKY", "KY"],
  ["LOUISIANA", "LA"],
  ["MAINE", "ME"],
  ["MARYLAND", "MD"],
  ["MASSACHUSETTS", "MA"],
  ["MICHIGAN", "MI"],
  ["MINNESOTA", "MN"],
  ["MISSISSIPPI", "MS"],
  ["MISSOURI", "MO"],
  ["MONTANA", "MT"],
  ["NEBRASKA", "NE"],
  ["NEVADA", "NV"],
  ["NEW HAMPSHIRE", "NH"],
  ["NEW JERSEY", "NJ"],
  ["NEW MEXICO", "NM"],
  ["NEW YORK", "NY"],
  ["NORTH CAROLINA", "NC"],
  ["NORTH DAKOTA", "ND"],
  ["OHIO", "OH"],
  ["OKLAHOMA", "OK"],
  ["OREGON", "OR"],
  ["PENNSYLVANIA", "PA"],
  ["RHODE ISLAND", "RI"],
  ["SOUTH CAROLINA", "SC"],
  ["SOUTH DAKOTA", "SD"],
  ["TENNESSEE", "TN"],
  ["TEXAS", "TX"],
  ["UTAH", "UT"],
  ["VERMONT", "VT"],
  ["VIRGINIA", "VA"],
  ["WASHINGTON", "WA"],
  ["WEST VIRGINIA", "WV"],
  ["WISCONSIN", "WI"],
  ["WYOMING", "WY"],
  // Not states, but places with rental properties and USPS codes of their own.
  ["DISTRICT OF COLUMBIA", "DC"],
  ["PUERTO RICO", "PR"],
];

const CODE_BY_NAME: ReadonlyMap<string, string> = new Map(STATES);
const CODES: ReadonlySet<string> = new Set(STATES.map(([, code]) => code));

/**
 * spec Property, `address.state`: a two-letter code or a full state name, in any case, with extra
 * spaces or periods ("n.y.", " new  york ") → the upper-case code; null when it names no US state.
 */
export function normalizeState(input: string): string | null {
  const key = input.replace(/\./g, "").trim().replace(/\s+/g, " ").toUpperCase();
  if (CODES.has(key)) return key;
  return CODE_BY_NAME.get(key) ?? null;
}
