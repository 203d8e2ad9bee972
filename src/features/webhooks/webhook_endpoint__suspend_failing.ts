import { z } from "zod";
import { getConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { suspendFailingEndpoints } from "./auto-suspend";

/**
 * decisions §16 Auto-suspend, hourly at minute 17 (away from the daily sweeps' minutes), so an
 * endpoint is suspended within an hour of its window's end; a run missed while no worker was up is
 * made up within the hour. graphile-worker queues each scheduled run once whatever the number of workers.
 */
export const webhookEndpointSuspendFailing = defineTask({
  name: "webhook_endpoint__suspend_failing",
  // graphile-worker's crontab adds `_cron` to the payload; the check reads the clock, not it.
  payload: z.object({}),
  crontab: "17 * * * * ?fill=1h",
  maxAttempts: 3,
  handler: async () => {
    const days = getConfig().endpointAutoSuspendDays;
    const suspended = await suspendFailingEndpoints(await getDb(), days);
    for (const endpoint of suspended) {
      logger().warn(
        { endpoint_id: endpoint.id, owner_id: endpoint.owner_id, provider_id: endpoint.provider_id, client_id: endpoint.client_id, days },
        "webhook endpoint suspended automatically",
      );
    }
  },
});
