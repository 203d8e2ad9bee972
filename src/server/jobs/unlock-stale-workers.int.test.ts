import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { addJob } from "./define-task";
import { workerHeartbeats } from "./heartbeats.table";
import { systemNoop } from "./system__noop";
import { unlockStaleWorkers } from "./system__unlock_stale_workers";

/**
 * docs/decisions.md "Operations: recovery from faults": a killed worker's jobs are handed back once
 * its heartbeat (named after its pool, the jobs' `locked_by`) has been silent for three beat
 * intervals (15 s by default), not only after the stale-lock time; a beating worker keeps its jobs.
 */
async function lockedJob(key: string, lockedBy: string, lockedSecondsAgo: number): Promise<void> {
  const db = await getDb();
  await addJob(db, systemNoop, {}, { jobKey: key });
  await db.execute(sql`update graphile_worker._private_jobs set locked_by = ${lockedBy}, locked_at = now() - make_interval(secs => ${lockedSecondsAgo})
    where key = ${key}`);
}

async function lockOf(key: string): Promise<string | null> {
  const [row] = await (await getDb()).execute<{ locked_by: string | null }>(sql`select locked_by from graphile_worker._private_jobs where key = ${key}`);
  return row.locked_by;
}

async function beat(id: string, secondsAgo: number): Promise<void> {
  await (await getDb())
    .insert(workerHeartbeats)
    .values({ id, mode: "process", beatAt: sql`now() - make_interval(secs => ${secondsAgo})` })
    .onConflictDoUpdate({ target: workerHeartbeats.id, set: { beatAt: sql`now() - make_interval(secs => ${secondsAgo})` } });
}

describe("unlockStaleWorkers by heartbeat (docs/decisions.md: Operations: recovery from faults)", () => {
  it("hands back the jobs of a pool whose heartbeat went silent, keeps those of a beating pool and of a pool that never beat", async () => {
    await lockedJob("silent-1", "pool-silent", 5);
    await beat("pool-silent", 20);
    await lockedJob("beating-1", "pool-beating", 40);
    await beat("pool-beating", 1);
    await lockedJob("unknown-1", "pool-unknown", 5);

    expect(await unlockStaleWorkers()).toBe(1);
    expect(await lockOf("silent-1")).toBeNull();
    expect(await lockOf("beating-1")).toBe("pool-beating");
    expect(await lockOf("unknown-1")).toBe("pool-unknown");

    // A silence shorter than three beat intervals is no death.
    await lockedJob("quiet-1", "pool-quiet", 5);
    await beat("pool-quiet", 10);
    expect(await unlockStaleWorkers()).toBe(0);
    expect(await lockOf("quiet-1")).toBe("pool-quiet");
  });
});
