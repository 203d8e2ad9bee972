import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";

export const resetMeta: Meta = {
  openapi: {
    method: "DELETE",
    path: "/residents/reset",
    tags: ["Staging"],
    summary: "Reset a renter (staging only)",
    description:
      "Clears the renter with this email under the owner (its prospects, and its user and policies) so the same email can enroll again. Idempotent: nothing to clear answers empty id lists. Both query parameters are required. Answers 404 in production.",
  },
  inputErrors: { kind: "fields", error: "Reset request is invalid" },
  responses: { errors: [401, 403, 404, 422] },
};

export const resetInput = z.object({
  email: z.string().trim().min(1).max(255).pipe(z.email()).meta({ description: "The renter's email", example: "renter@example.com" }),
  owner_slug: z.string().trim().min(1).max(100),
});

const ids = z.array(z.number().int());
export const resetOutput = z.object({ status_code: z.literal(200), user_ids: ids, prospect_ids: ids, policy_ids: ids, resident_ids: ids });
