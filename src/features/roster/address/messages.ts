/**
 * Messages of the address rules that partners match on (style §8). The roster collections report them
 * as field errors (spec Errors, per-item failures in collections).
 */

/** spec Unit rules, name derivation: "the unit name is required and not derivable". */
export const UNIT_NAME_NOT_DERIVABLE = "Unit name is required and could not be derived";

/** spec Property, `address.state`: "a two-letter abbreviation or full name". */
export const STATE_NOT_RECOGNIZED = "must be a US state: a two-letter abbreviation or the full name";

/** spec Property, `address.zip` and Limits: "ZIP+4 truncated to 5 digits". */
export const ZIP_NOT_VALID = "must be a 5-digit ZIP code or ZIP+4";
