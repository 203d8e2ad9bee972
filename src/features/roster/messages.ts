import { STATE_NOT_RECOGNIZED, UNIT_NAME_NOT_DERIVABLE, ZIP_NOT_VALID } from "./address/messages";

/** Messages partners match on (style §8); spec Errors "Per-item failures in collections". */
export const ROSTER_MESSAGES = {
  batchTooLarge: (count: number) => `A batch holds at most 500 items; this one has ${count}`,
  notAnArray: "Body must be a JSON array of items",
  notAnObject: "Item must be a JSON object",
  required: "is required",
  unknownBankAccount: "Bank account not found; register bank accounts before properties",
  cannotUnsetDefault: "Cannot unset the default account; send default: true on another account instead",
  ambiguousBuilding: "Several buildings match this item and nothing separates them",
  buildingLinkedElsewhere: "Building is already linked to a different external_system_id",
  unitLinkedElsewhere: "Unit is already linked to a different external_system_id",
  outsideGrantedBuildings: "Building is outside the set granted to this partner for this owner",
  managedOwnerNeedsPmsPair: "pms_type and pms_property_id are required for this owner",
  unknownProperty: "Property not found",
  singleUnitBuilding: (type: string) => `A ${type} building holds exactly one unit`,
  typeHoldsOneUnit: (type: string, count: number) => `A ${type} building holds exactly one unit; this building has ${count}`,
  invalidState: STATE_NOT_RECOGNIZED,
  invalidZip: ZIP_NOT_VALID,
  unitNameNotDerivable: UNIT_NAME_NOT_DERIVABLE,
  duplicateUnitName: "Another unit of this building already has this name",
} as const;
