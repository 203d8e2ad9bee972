export { normalizeState, normalizeZip } from "./states";
export { deriveBuildingStreet, formatStreet, normalizeStreetLine } from "./street";
export { deriveUnitName } from "./unit-name";
