/**
 * Address rules of the roster (spec Property rules, matching step 3 and Address derivation; Unit rules,
 * name derivation): pure functions, no database.
 */
export { deriveBuildingStreet } from "./building-street";
export { formatStreet } from "./format";
export { STATE_NOT_RECOGNIZED, UNIT_NAME_NOT_DERIVABLE, ZIP_NOT_VALID } from "./messages";
export { normalizeStreetLine } from "./normalize";
export { normalizeState } from "./states";
export { parseStreetLine, type StreetLine, type UnitDesignator } from "./street-line";
export { deriveUnitName, type UnitNameInput, type UnitNameResult } from "./unit-name";
export { normalizeZip } from "./zip";
