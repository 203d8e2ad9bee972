import { defineTask } from "../../server/jobs/define-task";
import { attemptDeliveries } from "./deliver";
import { deliveryTask } from "./webhook_delivery__attempt";

/** One HTTP attempt of each delivery of the batch; the next ones, if any, are scheduled by the attempt itself. */
export const webhookDeliveryAttempt = defineTask({
  ...deliveryTask,
  handler: async (payload) => {
    await attemptDeliveries("deliveryIds" in payload ? payload.deliveryIds : [payload.deliveryId]);
  },
});
