import { and, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../../server/db/client";
import { type Policy, policies } from "../policies.table";
import { type ChangedPolicy, recordStatusChanges } from "../status/change-status";

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
 * Advances every policy due as of `asOf` (docs/policies.md, Status over time), in transactions of
 * `batchSize` policies: each claims due policies `for update skip locked` (so concurrent sweeps
 * split the work and a row a partner request holds is left for later in the run instead of
 * waited on), changes them in one update and records the history rows, `latest_coverage` and
 * events of the batch in three more statements (`recordStatusChanges`, as `changePolicyStatus`
 * does). When nothing unlocked is left, a last pass waits for rows that were locked, re-checked
 * as they are released, so a run leaves nothing due behind and never changes a policy twice.
 */
export async function sweepDuePolicies(db: Db, asOf: string, options: { actor: string; batchSize?: number }): Promise<SweepResult> {
  const result: SweepResult = { expired: [], activated: [] };
  const batchSize = options.batchSize ?? SWEEP_BATCH_SIZE;
  for (const skipLocked of [true, false]) {
    for (;;) {
      const changed = await db.transaction(async (tx) => {
        const due = await tx
          .select({ id: policies.id, status: policies.status })
          .from(policies)
          .where(dueOn(asOf))
          .limit(batchSize)
          .for("update", skipLocked ? { skipLocked: true } : {});
        if (due.length === 0) return [];
        const from = new Map(due.map((row) => [row.id, row.status]));
        // The rows are locked: they are still what the claim read, so the update changes each of them.
        const rows: Policy[] = await tx
          .update(policies)
          .set({ status: sql`case when ${policies.coverageEndDate} < ${asOf} then 'expired' else 'active' end`, updatedAt: new Date() })
          .where(and(inArray(policies.id, [...from.keys()]), dueOn(asOf)))
          .returning();
        const batch: ChangedPolicy[] = rows.map((policy) => ({ policy, from: from.get(policy.id) ?? policy.status }));
        await recordStatusChanges(tx, batch, { actor: options.actor });
        return rows;
      });
      if (changed.length === 0) break;
      for (const policy of changed) (policy.status === "expired" ? result.expired : result.activated).push(policy.policyNumber);
    }
  }
  return result;
}
