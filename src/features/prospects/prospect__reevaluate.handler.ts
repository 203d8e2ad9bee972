import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { getDb, type Tx } from "../../server/db/client";
import { addJob, defineTask } from "../../server/jobs/define-task";
import { type DecisionRow, decisionOf, lockDecisionRows } from "./eligibility/decision-rows";
import { undeterminedDecision } from "./eligibility/evaluate";
import { emitProspectEvent, prospectPayload } from "./events";
import { type ReevaluationPayload, reevaluateTask } from "./prospect__reevaluate";
import { type Prospect, prospects } from "./prospects.table";

/** Prospects re-evaluated per transaction: a few statements per chunk, never one per prospect. */
export const REEVALUATION_CHUNK = 500;

/**
 * Re-evaluates the `ready` prospects of an owner (or of one building) after a roster or owner
 * change (`requestProspectReevaluation`), one chunk per job: the next chunk is a new job added with
 * this one's transaction, so no job runs long. Prospects in `processing` have their own job, which
 * reads the roster when it runs; `incomplete` and `error` prospects have no decision to follow.
 */
export const prospectReevaluate = defineTask({
  ...reevaluateTask,
  handler: async (scope) => {
    const db = await getDb();
    await db.transaction(async (tx) => {
      const lastId = await reevaluateChunk(tx, scope);
      if (lastId !== undefined) await addJob(tx, prospectReevaluate, { ...scope, afterId: lastId });
    });
  },
});

/**
 * One chunk, set-based: one locking read of the prospects with their owner, building and unit,
 * one update of the decisions that changed, and the events of the prospects whose URLs (or
 * guarantee status) changed, sent together. Answers the last id when a further chunk may follow.
 */
export async function reevaluateChunk(tx: Tx, scope: z.infer<typeof ReevaluationPayload>): Promise<number | undefined> {
  const conditions: Array<SQL | undefined> = [
    eq(prospects.ownerId, scope.ownerId),
    eq(prospects.status, "ready"),
    scope.buildingId === undefined ? undefined : eq(prospects.propertyId, scope.buildingId),
    scope.afterId === undefined ? undefined : gt(prospects.id, scope.afterId),
  ];
  const rows = await lockDecisionRows(tx, and(...conditions), REEVALUATION_CHUNK);
  const changes = rows.flatMap((row) => {
    const next = reevaluated(row);
    const same =
      next.status === row.prospect.status &&
      next.effectiveCoverageAmountCents === row.prospect.effectiveCoverageAmountCents &&
      JSON.stringify(next.eligibility) === JSON.stringify(row.prospect.eligibility);
    return same ? [] : [{ row, next }];
  });
  if (changes.length) {
    const values = changes.map(({ next }) => ({
      id: next.id,
      status: next.status,
      eligibility: next.eligibility,
      effective: next.effectiveCoverageAmountCents,
    }));
    // decisions (Prospects): `prospect.ready` carries the new state when what the payload shows
    // (enrollment URLs, guarantee status and reasons) changed; nothing is emitted otherwise.
    const visible = changes.filter(
      ({ row, next }) =>
        JSON.stringify(prospectPayload("prospect.ready", row.prospect, row.owner, row.source)) !==
        JSON.stringify(prospectPayload("prospect.ready", next, row.owner, row.source)),
    );
    await Promise.all([
      tx.execute(sql`update prospects p
        set status = v.status, eligibility = v.eligibility, effective_coverage_amount_cents = v.effective, updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id int, status text, eligibility jsonb, effective int)
        where p.id = v.id`),
      ...visible.map(({ row, next }) => emitProspectEvent(tx, "prospect.ready", next, row.owner, row.source)),
    ]);
  }
  return rows.length === REEVALUATION_CHUNK ? rows[rows.length - 1].prospect.id : undefined;
}

/** The prospect as the current roster decides it; `error` when its data cannot be decided on. */
function reevaluated(row: DecisionRow): Prospect {
  try {
    const { decision, effectiveCoverageAmountCents } = decisionOf(row);
    return { ...row.prospect, eligibility: decision, effectiveCoverageAmountCents };
  } catch {
    return { ...row.prospect, status: "error", eligibility: undeterminedDecision(row.prospect.guarantorCoverage), effectiveCoverageAmountCents: null };
  }
}
