import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";

export const getProspectMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/partners/{owner_slug}/prospects/{source}/{source_prospect_id}",
    tags: ["Prospects"],
    summary: "Read a prospect",
    description: "The prospect with its status, eligibility reasons and enrollment links. 404 when it does not exist or its source is another partner's.",
  },
  responses: { errors: [401, 403, 404] },
};

const pathParam = z.string().transform((value, ctx) => {
  try {
    return decodeURIComponent(value);
  } catch {
    ctx.addIssue({ code: "custom", message: "is not a valid path segment" });
    return z.NEVER;
  }
});

export const getProspectInput = z.object({ owner_slug: z.string(), source: pathParam, source_prospect_id: pathParam });
