import { getDb } from "../../../server/db/client";
import { defineTask } from "../../../server/jobs/define-task";
import { bulkRetryTask, runBulkRetry } from "./retry";

/** A console bulk retry, run in chunks with its progress recorded (docs/decisions.md, "Console: deliveries"); resumed after a dead worker. */
export const webhookDeliveryBulkRetry = defineTask({
  ...bulkRetryTask,
  handler: async ({ bulkRetryId }) => {
    await runBulkRetry(await getDb(), bulkRetryId, { resume: true });
  },
});
