import { z } from "zod";

/**
 * The input of a building grant from the console, in a module without server imports: the Building
 * grants screen's form checks the very same schema in the browser (CONTRIBUTING.md, "A console form").
 */
export const pmsType = z.enum(["pms_one", "pms_two"]);

export const buildingGrantInput = z.object({
  owner_slug: z.string().trim().min(1).max(200),
  client_id: z.string().trim().min(1).max(100),
  pms_type: pmsType,
  pms_property_id: z.string().trim().min(1).max(200),
});
