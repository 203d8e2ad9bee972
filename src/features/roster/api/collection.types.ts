import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { ROSTER_MESSAGES } from "../messages";

/** spec Common rules 1: an array body of at most 500 items, refused whole before processing. */
export const MAX_BATCH_ITEMS = 500;

export function collectionMeta(path: string, summary: string, description: string, itemSchema: z.ZodType): Meta {
  return {
    openapi: { method: "POST", path: `/partners/{owner_slug}/${path}`, tags: ["Onboarding"], summary, description },
    arrayBody: true,
    itemSchema,
    inputErrors: { kind: "fields", error: "Batch is invalid" },
    responses: { errors: [400, 401, 403, 404, 415, 422] },
  };
}

/**
 * Items stay unparsed at the request level so one invalid item fails alone (spec Common rules 5);
 * each is validated by its feature. The documented item schema is attached through `itemSchema`.
 */
export const collectionInput = z.object({
  owner_slug: z.string(),
  items: z
    .unknown()
    .superRefine((items, ctx) => {
      if (!Array.isArray(items)) ctx.addIssue({ code: "custom", message: ROSTER_MESSAGES.notAnArray });
      else if (items.length > MAX_BATCH_ITEMS) ctx.addIssue({ code: "custom", message: ROSTER_MESSAGES.batchTooLarge(items.length) });
    })
    .transform((items) => items as unknown[]),
});

export type CollectionInput = z.infer<typeof collectionInput>;

export const itemErrors = z.record(z.string(), z.array(z.string())).meta({ description: "Field name to messages" });

export const baseResult = {
  external_system_id: z.string().nullable(),
  action: z.enum(["created", "updated", "failed"]),
  errors: itemErrors.optional(),
};

export const collectionMetaCounts = z.object({ created: z.number().int(), updated: z.number().int(), failed: z.number().int() });

export function collectionOutput<T extends z.ZodRawShape>(resultShape: T) {
  return z.object({
    status_code: z.literal(200),
    results: z.array(z.object({ ...baseResult, ...resultShape })).meta({ description: "One result per item, in request order" }),
    meta: collectionMetaCounts,
  });
}
