import { z } from "zod";

/**
 * The inputs of the console's source procedures, in a module without server imports: the Sources
 * screen's forms check the very same schemas in the browser (CONTRIBUTING.md, "A console form").
 * The domain's own checks stay the CLI's (`createSource`, `redirectDomainsOf`).
 */

export const sourceFlow = z.enum(["embedded", "expedited"]);

export const sourceCreateInput = z.object({
  code: z.string().max(64),
  client_id: z.string().max(200),
  flow: sourceFlow.default("embedded"),
  optional_ingest_fields: z.boolean().default(false),
  redirect_domains: z.array(z.string().max(300)).max(50).default([]),
});

export const sourceUpdateInput = z.object({
  code: z.string().max(64),
  flow: sourceFlow.optional(),
  optional_ingest_fields: z.boolean().optional(),
  redirect_domains: z.array(z.string().max(300)).max(50).optional(),
});
