import { randomUUID } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { workerHeartbeats } from "./heartbeats.table";

/**
 * How often a running worker beats: a third of READY_WORKER_HEARTBEAT_SECONDS, between 1 and 5 s.
 * Three intervals without a beat mark its runner dead (system__unlock_stale_workers).
 */
export function heartbeatEveryMs(): number {
  return Math.max(1000, Math.min(5000, (getConfig().readyWorkerHeartbeatSeconds * 1000) / 3));
}

export type Heartbeat = { beat: () => Promise<void>; rename: (id: string) => Promise<void>; stop: () => Promise<void> };

/**
 * This worker's row in `worker_heartbeats`, written every few seconds while a runner runs
 * (readiness: src/server/health.ts) and deleted when it stops. Its id is the running runner's pool
 * id, the `locked_by` of the jobs it holds, so a runner whose beats stop has its jobs handed back
 * (system__unlock_stale_workers). Rows of workers killed a day ago are removed. Between two runners
 * (docs/decisions.md "Operations: recovery from faults": `isRunning` false) no beat is written.
 */
export function startHeartbeat(mode: "inline" | "process", isRunning: () => boolean): Heartbeat {
  let id: string = randomUUID();
  let pruned = false;
  const beat = async () => {
    if (!isRunning()) return;
    const db = await getDb();
    if (!pruned) {
      await db.delete(workerHeartbeats).where(lt(workerHeartbeats.beatAt, sql`now() - interval '1 day'`));
      pruned = true;
    }
    await db
      .insert(workerHeartbeats)
      .values({ id, mode })
      .onConflictDoUpdate({ target: workerHeartbeats.id, set: { beatAt: sql`now()` } });
  };
  const remove = async (which: string) => {
    await (await getDb())
      .delete(workerHeartbeats)
      .where(eq(workerHeartbeats.id, which))
      .catch(() => {});
  };
  // A missed beat (database unavailable) is what readiness reports; nothing to do here.
  const timer = setInterval(() => beat().catch(() => {}), heartbeatEveryMs());
  timer.unref();
  return {
    beat,
    rename: async (next) => {
      const previous = id;
      id = next;
      if (previous !== next) await remove(previous);
    },
    stop: async () => {
      clearInterval(timer);
      await remove(id);
    },
  };
}
