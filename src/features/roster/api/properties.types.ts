import { z } from "zod";
import { collectionMeta, collectionOutput } from "./collection.types";

/** The largest coverage multiplier a property or unit may carry (prospects bound the rent by it). */
export const MAX_COVERAGE_MULTIPLIER = 100;

export const coverage = z
  .object({
    type: z.literal("multiplier"),
    value: z.number().positive().max(MAX_COVERAGE_MULTIPLIER).meta({ description: "Times monthly rent", example: 1.5 }),
  })
  .strict()
  .meta({ description: "Coverage rule; default 1 times monthly rent" });

export const propertyAddress = z
  .object({
    line_one: z.string().trim().min(1).max(255),
    line_two: z.string().max(255).nullish().meta({ description: "Accepted and ignored" }),
    city: z.string().trim().min(1).max(100),
    state: z.string().trim().min(1).max(40).meta({ description: "Two-letter abbreviation or full name", example: "TX" }),
    zip: z.string().trim().min(1).max(10).meta({ description: "ZIP or ZIP+4 (truncated to five digits)", example: "78701" }),
    country: z.string().max(60).nullish().meta({ description: "Accepted and ignored" }),
  })
  .strict();

export const PROPERTY_TYPES = ["single_family", "garden_community", "multifamily", "single_address_garden_community"] as const;
export const SINGLE_UNIT_TYPES: ReadonlySet<string> = new Set(["single_family", "garden_community"]);

export const propertyItem = z
  .object({
    external_system_id: z.string().trim().min(1).max(255).meta({ description: "Upsert key, unique within the owner" }),
    building_name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .meta({ description: "Stable and distinct per building; required unless the item updates a linked building" }),
    address: propertyAddress.optional().meta({ description: "Required unless the item updates a linked building; copying any one unit's address is enough" }),
    type: z.enum(PROPERTY_TYPES).optional().meta({ description: "Default multifamily; single_family and garden_community hold exactly one unit" }),
    policy_holder_name: z.string().trim().min(1).max(255).nullish().meta({ description: "Default: the owner name followed by `, LLC`" }),
    pms_type: z.enum(["pms_one", "pms_two"]).nullish(),
    pms_property_id: z.string().trim().min(1).max(255).nullish(),
    default_coverage: coverage.nullish(),
    bank_account_external_id: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .nullish()
      .meta({ description: "Claims payout account (must exist); null reverts to the owner's default" }),
    active: z.boolean().optional().meta({ description: "false takes the building off the roster; true restores it" }),
  })
  .strict()
  .meta({ id: "PropertyItem" });

export type PropertyItem = z.infer<typeof propertyItem>;

export const propertiesMeta = collectionMeta(
  "properties",
  "Upsert properties (buildings)",
  "Buildings, upserted on `external_system_id`. Matching per item: a linked identifier updates its building; else a PMS pair adopts the building with that pair (`building_name` selects among several); else owner + `building_name` + normalized street + zip; else a building is created. Ambiguous matches, a building linked to another identifier, an unknown `bank_account_external_id` and a building outside a managed owner's granted set fail the item (HTTP 200).",
  propertyItem,
);

export const propertiesOutput = collectionOutput({});
