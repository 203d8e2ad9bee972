import { defineTask } from "../../server/jobs/define-task";
import { attemptDeliveries } from "./deliver";
import { runningDispatcher } from "./dispatcher";
import { deliveryTask } from "./webhook_delivery__attempt";

/**
 * A delivery job wakes this process's dispatcher and ends at once (docs/decisions.md, "Delivery
 * engine: a dispatcher per worker"): the dispatcher claims whatever is due, fairly across endpoints,
 * so the job never holds a job slot while a receiver answers. Jobs queued before the dispatcher
 * existed carry the same payload and wake it the same way. A process running jobs without a
 * dispatcher (graphile-worker's `runOnce`) attempts the job's deliveries itself, as one batch.
 */
export const webhookDeliveryAttempt = defineTask({
  ...deliveryTask,
  handler: async (payload) => {
    const ids = "deliveryIds" in payload ? payload.deliveryIds : [payload.deliveryId];
    const dispatcher = runningDispatcher();
    if (dispatcher) dispatcher.wake(ids);
    else await attemptDeliveries(ids);
  },
});
