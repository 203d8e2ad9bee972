import type { SQL } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { prospectContext } from "../context";
import { prospects } from "../prospects.table";
import { evaluateEligibility } from "./evaluate";

/**
 * Prospects (locked, in id order so concurrent callers never deadlock) with everything a decision
 * and its event need, in one statement: the eligibility job reads one, a re-evaluation a chunk.
 */
export async function lockDecisionRows(tx: Tx, where: SQL | undefined, limit?: number) {
  const query = prospectContext(tx).where(where).orderBy(prospects.id).$dynamic();
  if (limit !== undefined) query.limit(limit);
  return query.for("update", { of: prospects });
}

export type DecisionRow = Awaited<ReturnType<typeof lockDecisionRows>>[number];

/** The decision for one row (decisions §9, docs/eligibility.md). */
export function decisionOf({ prospect, owner, property, unit }: DecisionRow) {
  return evaluateEligibility({ prospect, owner, property: property ?? null, unit: unit ?? null, onboarded: prospect.pmsPropertyId === null });
}
