import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type Tx } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { observeProspectEligibility } from "../../server/observability/metrics";
import { type DecisionRow, decisionOf, lockDecisionRows } from "./eligibility/decision-rows";
import { undeterminedDecision } from "./eligibility/evaluate";
import { ELIGIBILITY_MAX_ATTEMPTS } from "./eligibility/retry-schedule";
import { emitProspectEvent } from "./events";
import { type Prospect, prospects } from "./prospects.table";

const Payload = z.object({ prospectId: z.number().int(), version: z.number().int() });

/**
 * spec Prospect status, processing → ready: evaluates eligibility and writes the decision. A job
 * for an older version of the prospect does nothing (a newer write has its own job). When the
 * last of its few attempts fails too, the prospect moves to `error` with the `undetermined` reason.
 */
export const prospectCheckEligibility = defineTask({
  name: "prospect__check_eligibility",
  payload: Payload,
  maxAttempts: ELIGIBILITY_MAX_ATTEMPTS,
  handler: async ({ prospectId, version }, helpers) => {
    const db = await getDb();
    try {
      const decided = await db.transaction((tx) => decide(tx, prospectId, version));
      if (decided) observeProspectEligibility(decided.processingSince);
    } catch (error) {
      if (helpers.job.attempts >= helpers.job.max_attempts) await db.transaction((tx) => markUndetermined(tx, prospectId, version));
      throw error;
    }
  },
});

const pending = (prospectId: number, version: number) => and(eq(prospects.id, prospectId), eq(prospects.version, version), eq(prospects.status, "processing"));

/** The decided prospect, and since when it waited for the decision (the write that made it `processing`). */
export async function decide(tx: Tx, prospectId: number, version: number): Promise<(Prospect & { processingSince: Date }) | undefined> {
  const [row] = await lockDecisionRows(tx, pending(prospectId, version));
  if (!row) return undefined; // stale: a newer write replaced this version
  const { decision, effectiveCoverageAmountCents } = decisionOf(row);
  const written = await write(tx, row, { status: "ready", eligibility: decision, effectiveCoverageAmountCents });
  return { ...written, processingSince: row.prospect.updatedAt };
}

/**
 * decisions (Prospects): after the last attempt the prospect is `error`, every applicable product
 * carries `Eligibility could not be determined`, and `prospect.ready` carries that state. A later
 * write puts it back to `processing`.
 */
export async function markUndetermined(tx: Tx, prospectId: number, version: number): Promise<Prospect | undefined> {
  const [row] = await lockDecisionRows(tx, pending(prospectId, version));
  if (!row) return undefined;
  return write(tx, row, { status: "error", eligibility: undeterminedDecision(row.prospect.guarantorCoverage), effectiveCoverageAmountCents: null });
}

type Outcome = Pick<Prospect, "status" | "eligibility" | "effectiveCoverageAmountCents">;

async function write(tx: Tx, { prospect, owner, source }: DecisionRow, outcome: Outcome): Promise<Prospect> {
  const next: Prospect = { ...prospect, ...outcome };
  // spec Prospect status, processing → ready: `prospect.ready` is emitted with the decision. The
  // write and the event are independent statements of this transaction: sent together.
  const [[written]] = await Promise.all([
    tx
      .update(prospects)
      .set({ ...outcome, updatedAt: sql`now()` })
      .where(eq(prospects.id, prospect.id))
      .returning({ updatedAt: prospects.updatedAt }),
    emitProspectEvent(tx, "prospect.ready", next, owner, source),
  ]);
  return { ...next, updatedAt: written.updatedAt };
}
