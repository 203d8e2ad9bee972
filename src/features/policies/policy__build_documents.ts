import { z } from "zod";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { regeneratePolicyDocuments } from "./build-documents";

/**
 * Builds a policy's document archive and emits `policy.documents_updated` (decisions §11 Documents),
 * added by issuance (and later by revisions) in the transaction of the change.
 */
export const policyBuildDocuments = defineTask({
  name: "policy__build_documents",
  payload: z.object({ policyId: z.number().int().positive() }),
  maxAttempts: 10,
  handler: async ({ policyId }) => {
    await regeneratePolicyDocuments(await getDb(), policyId);
  },
});
