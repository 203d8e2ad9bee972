import { sql } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { defineTask } from "./define-task";

/**
 * Queue-wide maintenance: graphile-worker keeps a killed worker's jobs (running, or waiting in its
 * local queue) locked for hours (stack notes). A job locked longer than WORKER_STALE_LOCK_SECONDS
 * belongs to a dead worker: its worker's locks are released so another worker takes the job now.
 */
export async function unlockStaleWorkers(): Promise<number> {
  const db = await getDb();
  const [row] = await db.execute<{ workers: number }>(sql`
    with stale as (
      select distinct locked_by from graphile_worker.jobs
      where locked_by is not null and locked_at < now() - make_interval(secs => ${getConfig().workerStaleLockSeconds}::double precision)
    ), unlocked as (select graphile_worker.force_unlock_workers(array(select locked_by from stale)))
    select (select count(*)::int from stale) as workers, (select count(*) from unlocked) as _done`);
  return row.workers;
}

export const systemUnlockStaleWorkers = defineTask({
  name: "system__unlock_stale_workers",
  payload: z.object({}).passthrough(),
  everySeconds: () => getConfig().workerUnlockIntervalSeconds,
  handler: async () => {
    await unlockStaleWorkers();
  },
});
