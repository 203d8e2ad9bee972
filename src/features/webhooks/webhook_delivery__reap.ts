import { sql } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { deliveryJobsFrom } from "./jobs";

/**
 * Crash safety: a worker killed mid-attempt leaves its delivery `delivering`. Deliveries whose lease
 * lapsed go back to `retrying` and get a new job at once. Receivers dedupe on X-Webhook-Delivery:
 * at-least-once is the promise. (The killed worker's locked jobs are the job runner's concern:
 * `system__unlock_stale_workers`.)
 */
export async function reapLapsedDeliveries(): Promise<number> {
  const db = await getDb();
  const [row] = await db.execute<{ reaped: number }>(sql`
    with lapsed as (
      update webhook_deliveries
      set status = 'retrying', lease_expires_at = null, next_retry_at = now(), updated_at = now(),
          last_attempt_failure_reason = 'worker stopped during the attempt; retried'
      where status = 'delivering' and lease_expires_at < now()
      returning id
    ), jobs as (${deliveryJobsFrom(sql`select id, null::timestamptz as run_at from lapsed`)}
    )
    select (select count(*)::int from lapsed) as reaped, (select count(*) from jobs) as _jobs`);
  return row.reaped;
}

/** Runs every WEBHOOK_REAP_INTERVAL_SECONDS (default 20 s), and each minute from the crontab as a backstop. */
export const webhookDeliveryReap = defineTask({
  name: "webhook_delivery__reap",
  payload: z.object({}).passthrough(),
  everySeconds: () => getConfig().webhookReapIntervalSeconds,
  handler: async () => {
    await reapLapsedDeliveries();
  },
});
