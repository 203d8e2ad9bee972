import { z } from "zod";

/**
 * The inputs of the console's provider procedures, in a module without server imports: the
 * Providers screen's forms check the very same schemas in the browser (CONTRIBUTING.md, "A console
 * form"). Whether the owners and buildings exist stays the domain's check.
 */

export const providerBuilding = z.object({ owner_slug: z.string().trim().min(1).max(200), external_id: z.string().trim().min(1).max(200) });
const coverageInput = z.object({
  owner_slugs: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
  buildings: z.array(providerBuilding).max(100).default([]),
});
export const providerCreateInput = coverageInput.extend({
  code: z.string().trim().min(1).max(64),
  client_id: z.string().trim().min(1).max(100),
});
export const providerCoverageInput = coverageInput.extend({ code: z.string().trim().min(1).max(64) });
export const providerRemoveCoverageInput = z
  .object({ code: z.string().trim().min(1).max(64), owner_slug: z.string().trim().min(1).max(200).optional(), building: providerBuilding.optional() })
  .refine((input) => (input.owner_slug === undefined) !== (input.building === undefined), { message: "Name one owner or one building", path: ["owner_slug"] });

export const providerSearchInput = z.object({ client_id: z.string().trim().max(100).optional() });
