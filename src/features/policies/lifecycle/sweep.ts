import { and, eq, getTableColumns, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../../server/db/client";
import { type Policy, type PolicyStatus, policies } from "../policies.table";
import { recordStatusChanges } from "../status/change-status";

/** Policies changed per transaction: short locks, and a batch's events written in one statement. */
export const SWEEP_BATCH_SIZE = 250;

export type SweepResult = {
  /** Policy numbers that became `expired` (from `active`, or from `upcoming` whose end had passed). */
  expired: string[];
  /** Policy numbers that became `active` (`upcoming` whose start came). */
  activated: string[];
};

/**
 * The SQL of `dueStatusOn` (status/rules.ts): live policies whose end passed (expired) or whose
 * start came (upcoming → active), as of a UTC day. Both halves are served by partial indexes.
 */
function dueOn(asOf: string) {
  return or(
    and(inArray(policies.status, ["upcoming", "active"]), lt(policies.coverageEndDate, asOf)),
    and(sql`${policies.status} = 'upcoming'`, sql`${policies.coverageStartDate} <= ${asOf}`),
  );
}

/**
 * One transaction of the sweep: claims up to `batchSize` due policies `for update` (skipping rows
 * others hold, or waiting for them), changes them in one update, and records the batch's history
 * rows, `latest_coverage` and events as `changePolicyStatus` does (`recordStatusChanges`). Answers
 * the changed policies; none when nothing (unlocked) is due.
 */
export async function sweepBatch(db: Db, asOf: string, options: { actor: string; batchSize: number; skipLocked: boolean }): Promise<Policy[]> {
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: policies.id, from: sql<PolicyStatus>`${policies.status}`.as("from_status") })
      .from(policies)
      .where(dueOn(asOf))
      .limit(options.batchSize)
      .for("update", options.skipLocked ? { skipLocked: true } : {})
      .as("due");
    // One statement claims and changes the batch; the claimed rows are locked, so each changes.
    const changed = await tx
      .update(policies)
      .set({ status: sql`case when ${policies.coverageEndDate} < ${asOf} then 'expired' else 'active' end`, updatedAt: new Date() })
      .from(due)
      .where(eq(policies.id, due.id))
      .returning({ policy: getTableColumns(policies), from: due.from });
    await recordStatusChanges(tx, changed, { actor: options.actor });
    return changed.map((row) => row.policy);
  });
}

/**
 * The pause after each batch, as a share of that batch's own duration (docs/decisions.md, Sweep
 * beside partners): the sweep holds PostgreSQL's CPU and the NOTIFY queue's commit lock about half
 * the time at most, whatever the machine's speed, so partner requests are served between batches.
 */
export const SWEEP_PAUSE_RATIO = 0.5;

/**
 * Advances every policy due as of `asOf` (docs/policies.md, Status over time), in transactions of
 * `batchSize` policies, one at a time, each followed by a pause of `pauseRatio` times its own
 * duration. Batches claim `for update skip locked`, so concurrent sweeps split the work, and a row
 * a partner request holds is left for later in the run instead of waited on. When nothing unlocked
 * is left, a last pass waits for rows that were locked, re-checked as they are released, so a run
 * leaves nothing due behind and never changes a policy twice.
 */
export async function sweepDuePolicies(
  db: Db,
  asOf: string,
  options: {
    actor: string;
    batchSize?: number;
    pauseRatio?: number;
    /** Told each batch's size, how long its transaction (and so its locks) lasted, and the pause that follows it. */
    onBatch?: (batch: { changed: number; ms: number; pauseMs: number }) => void;
  },
): Promise<SweepResult> {
  const result: SweepResult = { expired: [], activated: [] };
  const batchSize = options.batchSize ?? SWEEP_BATCH_SIZE;
  const pauseRatio = options.pauseRatio ?? SWEEP_PAUSE_RATIO;
  const run = async (skipLocked: boolean) => {
    for (;;) {
      const started = performance.now();
      const changed = await sweepBatch(db, asOf, { actor: options.actor, batchSize, skipLocked });
      if (changed.length === 0) return;
      const ms = performance.now() - started;
      const pauseMs = ms * pauseRatio;
      options.onBatch?.({ changed: changed.length, ms, pauseMs });
      for (const policy of changed) (policy.status === "expired" ? result.expired : result.activated).push(policy.policyNumber);
      // A timer, not a microtask: the event loop (the web's, for the inline worker) serves requests meanwhile.
      // Timers may fire a little early (whole milliseconds, the loop's cached clock): wait out the rest.
      const pauseEnds = performance.now() + pauseMs;
      for (let left = pauseMs; left > 0; left = pauseEnds - performance.now()) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
    }
  };
  await run(true);
  await run(false);
  return result;
}
