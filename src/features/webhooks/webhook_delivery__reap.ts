import { sql } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../server/config";
import { type Db, getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { WEBHOOK_MESSAGES } from "./messages";
import { MAX_ATTEMPTS, MAX_DELAY_SECONDS } from "./schedule";
import { deliveryJobsFrom } from "./webhook_delivery__attempt";

/**
 * Crash safety: a worker killed (or stalled) mid-attempt leaves its delivery `delivering`. Deliveries
 * whose lease lapsed are settled as a failed attempt (docs/decisions.md, Hardening: deliveries): the
 * attempt is counted and recorded (no answer, no known headers), and the delivery is `retrying` on the
 * schedule, or `failed` after attempt 25, so a delivery that stops its worker every time cannot be
 * sent forever. Receivers dedupe on X-Webhook-Delivery: at-least-once is the promise. (The killed
 * worker's locked jobs are the job runner's concern: `system__unlock_stale_workers`.)
 */
export async function reapLapsedDeliveries(): Promise<number> {
  const db = await getDb();
  const lapsed = (
    await db.execute<{ id: string }>(sql`select id from webhook_deliveries where status = 'delivering' and lease_expires_at < now() order by id`)
  ).map((row) => row.id);
  if (lapsed.length === 0) return 0;
  try {
    return await reap(db, lapsed);
  } catch (error) {
    // One delivery the database refuses to settle never keeps the others delivering.
    logger().warn({ err: error, deliveries: lapsed.length }, "webhook reap failed; reaping each delivery on its own");
  }
  let reaped = 0;
  for (const id of lapsed) {
    try {
      reaped += await reap(db, [id]);
    } catch (error) {
      logger().error({ err: error, delivery_id: id }, "webhook delivery could not be reaped");
    }
  }
  return reaped;
}

async function reap(db: Db, ids: string[]): Promise<number> {
  const [row] = await db.execute<{ reaped: number }>(sql`
    with lapsed as (
      update webhook_deliveries d
      set status = case when d.attempt_number + 1 >= ${MAX_ATTEMPTS} then 'failed' else 'retrying' end,
          attempt_number = d.attempt_number + 1, last_attempted_at = d.updated_at,
          duration_ms = least(extract(epoch from now() - d.updated_at) * 1000, 2147483647)::int,
          lease_expires_at = null, updated_at = now(),
          -- the schedule's wait before the next attempt (schedule.ts delayBeforeAttempt)
          next_retry_at = case when d.attempt_number + 1 >= ${MAX_ATTEMPTS} then null
            else now() + make_interval(secs => least(power(2, d.attempt_number + 2), ${MAX_DELAY_SECONDS})) end,
          last_attempt_failure_reason = ${WEBHOOK_MESSAGES.leaseLapsed}
      where d.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
        and d.status = 'delivering' and d.lease_expires_at < now()
      returning d.id, d.attempt_number, d.last_attempted_at, d.duration_ms, d.next_retry_at
    ), attempts as (
      insert into webhook_attempts (delivery_id, number, started_at, duration_ms, response_status, failure_reason, response_body_excerpt, request_headers)
      select id, attempt_number, last_attempted_at, duration_ms, null, ${WEBHOOK_MESSAGES.leaseLapsed}, null, '{}'::jsonb from lapsed
      returning 1
    ), jobs as (${deliveryJobsFrom(sql`select id, next_retry_at as run_at from lapsed where next_retry_at is not null`)}
    )
    select (select count(*)::int from lapsed) as reaped, (select count(*) from attempts) as _attempts, (select count(*) from jobs) as _jobs`);
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
