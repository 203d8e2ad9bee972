import { and, eq, getTableColumns, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../../server/db/client";
import { type Policy, type PolicyStatus, policies } from "../policies.table";
import { recordStatusChanges } from "../status/change-status";

/** Policies changed per transaction: short locks, and a batch's events written in one statement. */
export const SWEEP_BATCH_SIZE = 1000;

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

/** Batches in flight at once: one builds its events while the other writes (skip locked keeps them apart). */
export const SWEEP_CONCURRENCY = 2;

/**
 * Advances every policy due as of `asOf` (docs/policies.md, Status over time), in transactions of
 * `batchSize` policies, `concurrency` of them at a time. Batches claim `for update skip locked`,
 * so they (and concurrent sweeps) split the work, and a row a partner request holds is left for
 * later in the run instead of waited on. When nothing unlocked is left, a last pass waits for rows
 * that were locked, re-checked as they are released, so a run leaves nothing due behind and never
 * changes a policy twice.
 */
export async function sweepDuePolicies(
  db: Db,
  asOf: string,
  options: {
    actor: string;
    batchSize?: number;
    concurrency?: number;
    /** Told each batch's size and how long its transaction (and so its locks) lasted. */
    onBatch?: (batch: { changed: number; ms: number }) => void;
  },
): Promise<SweepResult> {
  const result: SweepResult = { expired: [], activated: [] };
  const batchSize = options.batchSize ?? SWEEP_BATCH_SIZE;
  const run = async (skipLocked: boolean) => {
    for (;;) {
      const started = performance.now();
      const changed = await sweepBatch(db, asOf, { actor: options.actor, batchSize, skipLocked });
      if (changed.length === 0) return;
      options.onBatch?.({ changed: changed.length, ms: performance.now() - started });
      for (const policy of changed) (policy.status === "expired" ? result.expired : result.activated).push(policy.policyNumber);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? SWEEP_CONCURRENCY }, () => run(true)));
  await run(false);
  return result;
}
