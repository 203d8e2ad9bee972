import { sql } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { defineTask } from "./define-task";
import { heartbeatEveryMs } from "./heartbeat";
import { workerHeartbeats } from "./heartbeats.table";

/**
 * Queue-wide maintenance: graphile-worker keeps a killed worker's jobs (running, or waiting in its
 * local queue) locked for hours (stack notes). Its locks are released, so another worker takes the
 * jobs now, when the worker is dead by either sign (docs/decisions.md "Operations: recovery from faults"):
 * - its heartbeat (named after the runner's pool, the jobs' `locked_by`) stopped: no beat for
 *   three beat intervals (15 s by default), while a live runner beats every few seconds;
 * - or, for a runner that never beat (an older version during a rolling upgrade), a job locked
 *   longer than WORKER_STALE_LOCK_SECONDS.
 */
export async function unlockStaleWorkers(): Promise<number> {
  const db = await getDb();
  const silentSeconds = (3 * heartbeatEveryMs()) / 1000;
  const [row] = await db.execute<{ workers: number }>(sql`
    with stale as (
      select distinct j.locked_by from graphile_worker._private_jobs j
      where j.locked_by is not null
        and (j.locked_at < now() - make_interval(secs => ${getConfig().workerStaleLockSeconds}::double precision)
          or exists (select 1 from ${workerHeartbeats} h where h.id = j.locked_by
                     and h.beat_at < now() - make_interval(secs => ${silentSeconds}::double precision)))
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
