import { z } from "zod";

/**
 * The inputs of the console's building actions, in a module without server imports: the building
 * page's forms check the very same schemas in the browser (CONTRIBUTING.md, "A console form"). The
 * address rules themselves (a US state, a ZIP) stay the domain's check (`correctAddress`).
 */

const byId = z.object({ id: z.number().int().positive() });

export const addressCorrection = z.object({
  line_one: z.string().max(200),
  city: z.string().max(100),
  state: z.string().max(100),
  zip: z.string().max(20),
});

export const buildingAddressInput = byId.extend({ address: addressCorrection });
export const buildingActiveInput = byId.extend({ active: z.boolean() });
