import { sql } from "drizzle-orm";
import type { Task } from "graphile-worker";
import { getDb } from "../../server/db/client";
import { addJob } from "../../server/jobs/add-job";
import { deliveryJobsFrom } from "./jobs";

export const REAPER_KEY = "webhook-delivery-reaper";
export const reapIntervalSeconds = () => Number(process.env.WEBHOOK_REAP_INTERVAL_SECONDS ?? 20);
/** A job locked this long belongs to a dead worker: no task or local-queue stay lasts that long. */
export const staleLockSeconds = () => Number(process.env.WORKER_STALE_LOCK_SECONDS ?? 60);

/**
 * Crash safety: a worker killed mid-attempt leaves its delivery `delivering` (and graphile-worker
 * keeps its job locked for hours). Deliveries whose lease lapsed go back to `retrying` and get a new
 * job at once. Receivers dedupe on X-Webhook-Delivery: at-least-once is the promise.
 * Runs every minute from the crontab and re-schedules itself sooner (default every 20 s).
 */
export async function reapLapsedDeliveries(): Promise<number> {
  const db = await getDb();
  // graphile-worker keeps a killed worker's jobs (running or waiting in its local queue) locked for
  // hours; unlock them so another worker takes them now.
  await db.execute(sql`select graphile_worker.force_unlock_workers(array(
    select distinct locked_by from graphile_worker.jobs
    where locked_by is not null and locked_at < now() - make_interval(secs => ${staleLockSeconds()}::double precision)))`);
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

export const webhookDeliveryReap: Task = async () => {
  await reapLapsedDeliveries();
  await addJob(await getDb(), "webhook_delivery__reap", {}, { jobKey: REAPER_KEY, runAt: new Date(Date.now() + reapIntervalSeconds() * 1000) });
};
