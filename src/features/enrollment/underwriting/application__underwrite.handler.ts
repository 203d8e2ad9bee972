import { isDeepStrictEqual } from "node:util";
import { eq } from "drizzle-orm";
import { getConfig } from "../../../server/config";
import { getDb, type Tx } from "../../../server/db/client";
import { defineTask } from "../../../server/jobs/define-task";
import { enterOwnerGate } from "../../owners/merge/gate";
import { prospectContext } from "../../prospects/context";
import { prospects } from "../../prospects/prospects.table";
import { type Application, applications } from "../applications/applications.table";
import { recordUnderwriting } from "../applications/service";
import { underwriteTask } from "./application__underwrite";
import { underwritingInputOf } from "./input";
import { underwritingRulesFor } from "./rules-store";
import { type UnderwritingOutcome, underwrite } from "./underwrite";

/** The application with everything underwriting reads, in one statement, both rows locked. */
async function lockUnderwritingRow(tx: Tx, applicationId: number) {
  const [row] = await prospectContext(tx, { also: { application: applications }, source: false })
    .innerJoin(applications, eq(applications.prospectId, prospects.id))
    .where(eq(applications.id, applicationId))
    .for("update", { of: [applications, prospects] });
  return row;
}

export type UnderwritingResult = { application: Application; outcome: UnderwritingOutcome } | undefined;

/**
 * decisions §10 step (2), docs/underwriting.md: underwrites the application with the owner's
 * rules, records it (`policy_application.quoted` / `.declined`, once per outcome) and stores the
 * outcome on the prospect for `offered_products` and the decline reasons. Nothing is done for an
 * application that is gone or canceled (reset) or a prospect no longer eligible to enroll (the flow
 * shows it blocked). Running it again with the same inputs changes nothing and emits nothing.
 */
export async function underwriteApplication(tx: Tx, applicationId: number): Promise<UnderwritingResult> {
  const row = await lockUnderwritingRow(tx, applicationId);
  if (row?.application.status !== "created") return undefined;
  if (row.prospect.status !== "ready" || row.prospect.eligibility?.eligible !== true) return undefined;
  const rules = await underwritingRulesFor(tx, row.prospect.ownerId);
  const outcome = underwrite(underwritingInputOf({ ...row, property: row.property ?? null, unit: row.unit ?? null }, rules, getConfig().appEnv));
  const application = await recordUnderwriting(tx, row.application, outcome);
  // jsonb drops undefined fields: compare as stored, so a second run writes nothing.
  const stored = JSON.parse(JSON.stringify(outcome)) as UnderwritingOutcome;
  if (!isDeepStrictEqual(row.prospect.underwriting, stored)) {
    await tx.update(prospects).set({ underwriting: stored }).where(eq(prospects.id, row.prospect.id));
  }
  return { application, outcome };
}

export const applicationUnderwrite = defineTask({
  ...underwriteTask,
  handler: async ({ applicationId }) => {
    const db = await getDb();
    await db.transaction(async (tx) => {
      // The owner's merge gate first, as every owner-scoped write (owners/merge/gate.ts): a merge
      // running now finishes before this job reads and writes what it moves.
      const [application] = await tx.select({ ownerId: applications.ownerId }).from(applications).where(eq(applications.id, applicationId));
      if (application) await enterOwnerGate(tx, application.ownerId);
      return underwriteApplication(tx, applicationId);
    });
  },
});
