import { z } from "zod";
import { collectionMeta, collectionOutput } from "./collection.types";
import { coverage } from "./properties.types";

const line = z.string().max(255).nullish();

export const unitItem = z
  .object({
    external_system_id: z.string().trim().min(1).max(255).meta({ description: "Upsert key, unique within its property" }),
    property_external_id: z.string().trim().min(1).max(255).meta({ description: "The partner's identifier of the unit's property" }),
    name: z.string().trim().min(1).max(100).nullish().meta({ description: "Unit number or name; when present it always wins over derivation" }),
    address: z
      .object({ line_one: line, line_two: line, city: line, state: line, zip: line })
      .strict()
      .nullish()
      .meta({ description: "The unit's full address exactly as your system stores it; derives the building street and, without a name, the unit label" }),
    pms_unit_id: z.string().trim().min(1).max(255).nullish(),
    default_coverage: coverage.nullish().meta({ description: "Inherited from the property when absent" }),
  })
  .strict()
  .meta({ id: "UnitItem" });

export type UnitItem = z.infer<typeof unitItem>;

export const unitsMeta = collectionMeta(
  "units",
  "Upsert units",
  "Units, upserted on `external_system_id` within the property named by `property_external_id` (send properties first; both may go in one pass). Matching within the building: linked identifier, then `pms_unit_id`, then name ignoring case. Without `name`, the name is derived from the address (designator, street remainder, `line_two` designator) or `pms_unit_id`. Sending all of a building's units in one request resolves the derived building street and names at once.",
  unitItem,
);

export const unitsOutput = collectionOutput({});
