import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { addJob, declareTask } from "../../../server/jobs/define-task";
import type { Application } from "../applications/applications.table";

export const UnderwritePayload = z.object({ applicationId: z.number().int() });

/**
 * The underwriting task (CONTRIBUTING.md, Jobs); `application__underwrite.handler.ts` defines it with
 * its handler (apart, as `prospect__reevaluate`'s, so the flow never imports the handler's imports).
 */
export const underwriteTask = declareTask({ name: "application__underwrite", payload: UnderwritePayload, maxAttempts: 5 });

/**
 * decisions §10 step (2): the flow calls this inside the transaction that completes the details
 * step. One pending job per application: a second request before it runs replaces it.
 */
export async function requestUnderwriting(tx: Tx, application: Pick<Application, "id">): Promise<void> {
  await addJob(tx, underwriteTask, { applicationId: application.id }, { jobKey: `application-underwrite:${application.id}` });
}
