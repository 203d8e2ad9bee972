import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";

export const resetMeta: Meta = {
  openapi: {
    method: "DELETE",
    path: "/residents/reset",
    tags: ["Staging"],
    summary: "Reset a renter (staging only)",
    description:
      "Clears the renter with this email under the owner for real (its prospects sent by the calling partner, their applications, policies with their documents, cash deposits and resident records, and the renter's user once nothing else of it remains) so the same email can enroll again; answers the deleted ids. Idempotent: nothing to clear answers empty id lists. Both query parameters are required. Answers 404 in production.",
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
