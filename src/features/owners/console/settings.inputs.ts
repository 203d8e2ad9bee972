import { z } from "zod";
import { upsertOwnerInput } from "../api/upsert-owner.types";

/**
 * The input of an owner's purchase settings from the console, in a module the browser may bundle
 * (zod schemas only): the owner page's form checks the very same schema (CONTRIBUTING.md, "A
 * console form"). The ceiling is the partner upsert's own field.
 */
export const ownerSettingsInput = z.object({
  slug: z.string().max(200),
  purchase_flow_enabled: z.boolean().optional(),
  max_coverage_amount_cents: upsertOwnerInput.shape.max_coverage_amount_cents,
});
