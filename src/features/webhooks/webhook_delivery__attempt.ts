import { z } from "zod";
import { defineTask } from "../../server/jobs/define-task";
import { attemptDeliveries } from "./deliver";
import { DELIVERY_TASK } from "./jobs";

/** One HTTP attempt of each delivery of the batch; the next ones, if any, are scheduled by the attempt itself. */
export const webhookDeliveryAttempt = defineTask({
  name: DELIVERY_TASK,
  // `deliveryId` is the payload of jobs queued before deliveries were batched.
  payload: z.union([z.object({ deliveryIds: z.array(z.string().min(1)) }), z.object({ deliveryId: z.string().min(1) })]),
  handler: async (payload) => {
    await attemptDeliveries("deliveryIds" in payload ? payload.deliveryIds : [payload.deliveryId]);
  },
});
