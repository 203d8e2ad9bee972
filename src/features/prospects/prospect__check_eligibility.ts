import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type Tx } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { propertyOwners } from "../owners/tables";
import { properties, units } from "../roster/tables";
import { evaluateEligibility } from "./eligibility/evaluate";
import { emitProspectEvent } from "./events";
import { sources } from "./sources.table";
import { type Prospect, prospects } from "./tables";

const Payload = z.object({ prospectId: z.number().int(), version: z.number().int() });

/**
 * spec Prospect status, processing → ready: evaluates eligibility and writes the decision. A job
 * for an older version of the prospect does nothing (a newer write has its own job). When the
 * decision cannot be made after the last attempt, the prospect moves to `error`.
 */
export const prospectCheckEligibility = defineTask({
  name: "prospect__check_eligibility",
  payload: Payload,
  handler: async ({ prospectId, version }, helpers) => {
    const db = await getDb();
    try {
      await db.transaction((tx) => decide(tx, prospectId, version));
    } catch (error) {
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        await db
          .update(prospects)
          .set({ status: "error", updatedAt: sql`now()` })
          .where(and(eq(prospects.id, prospectId), eq(prospects.version, version), eq(prospects.status, "processing")));
      }
      throw error;
    }
  },
});

export async function decide(tx: Tx, prospectId: number, version: number): Promise<Prospect | undefined> {
  // The prospect (locked) with everything the decision and the event need, in one statement.
  const [row] = await tx
    .select({ prospect: prospects, owner: propertyOwners, property: properties, unit: units, source: sources })
    .from(prospects)
    .innerJoin(propertyOwners, eq(propertyOwners.id, prospects.ownerId))
    .innerJoin(sources, eq(sources.id, prospects.sourceId))
    .leftJoin(properties, eq(properties.id, prospects.propertyId))
    .leftJoin(units, eq(units.id, prospects.unitId))
    .where(and(eq(prospects.id, prospectId), eq(prospects.version, version), eq(prospects.status, "processing")))
    .for("update", { of: prospects });
  if (!row) return undefined; // stale: a newer write replaced this version
  const { prospect, owner, property, unit, source } = row;
  const { decision, effectiveCoverageAmountCents } = evaluateEligibility({
    prospect,
    owner,
    property: property ?? null,
    unit: unit ?? null,
    onboarded: prospect.pmsPropertyId === null,
  });
  const ready: Prospect = { ...prospect, status: "ready", eligibility: decision, effectiveCoverageAmountCents };
  // spec Prospect status, processing → ready: `prospect.ready` is emitted with the decision. The
  // write and the event are independent statements of this transaction: sent together.
  const [[written]] = await Promise.all([
    tx
      .update(prospects)
      .set({ status: ready.status, eligibility: decision, effectiveCoverageAmountCents, updatedAt: sql`now()` })
      .where(eq(prospects.id, prospect.id))
      .returning({ updatedAt: prospects.updatedAt }),
    emitProspectEvent(tx, "prospect.ready", ready, owner, source),
  ]);
  return { ...ready, updatedAt: written.updatedAt };
}
