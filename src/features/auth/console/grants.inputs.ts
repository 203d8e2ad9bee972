import { z } from "zod";

/**
 * The inputs of the console's owner grant procedures, in a module without server imports: the
 * client page's grant form checks the very same schema in the browser (CONTRIBUTING.md, "A console
 * form").
 */
export const grantInput = z.object({ client_id: z.string().trim().min(1).max(100), owner_slug: z.string().trim().min(1).max(200) });
export const ownerOptionsInput = z.object({ query: z.string().trim().max(200).optional() });
