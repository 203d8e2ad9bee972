import type { Task } from "graphile-worker";
import { z } from "zod";
import { attemptDelivery } from "./deliver";

const Payload = z.object({ deliveryId: z.string().min(1) });

/** One HTTP attempt of a delivery; the next one, if any, is scheduled by the attempt itself. */
export const webhookDeliveryAttempt: Task = async (payload) => {
  await attemptDelivery(Payload.parse(payload).deliveryId);
};
