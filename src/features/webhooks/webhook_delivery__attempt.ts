import type { Task } from "graphile-worker";
import { z } from "zod";
import { attemptDeliveries } from "./deliver";

// `deliveryId` is the payload of jobs queued before deliveries were batched.
const Payload = z.union([z.object({ deliveryIds: z.array(z.string().min(1)) }), z.object({ deliveryId: z.string().min(1) })]);

/** One HTTP attempt of each delivery of the batch; the next ones, if any, are scheduled by the attempt itself. */
export const webhookDeliveryAttempt: Task = async (payload) => {
  const parsed = Payload.parse(payload);
  await attemptDeliveries("deliveryIds" in parsed ? parsed.deliveryIds : [parsed.deliveryId]);
};
