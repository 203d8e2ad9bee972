import { and, eq, sql } from "drizzle-orm";
import type { Task } from "graphile-worker";
import { z } from "zod";
import { getDb, type Tx } from "../../server/db/client";
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
export const prospectCheckEligibility: Task = async (payload, helpers) => {
  const { prospectId, version } = Payload.parse(payload);
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
};

export async function decide(tx: Tx, prospectId: number, version: number): Promise<Prospect | undefined> {
  const [prospect] = await tx
    .select()
    .from(prospects)
    .where(and(eq(prospects.id, prospectId), eq(prospects.version, version), eq(prospects.status, "processing")))
    .for("update");
  if (!prospect) return undefined; // stale: a newer write replaced this version
  const [owner] = await tx.select().from(propertyOwners).where(eq(propertyOwners.id, prospect.ownerId));
  const [property] = prospect.propertyId ? await tx.select().from(properties).where(eq(properties.id, prospect.propertyId)) : [];
  const [unit] = prospect.unitId ? await tx.select().from(units).where(eq(units.id, prospect.unitId)) : [];
  const { decision, effectiveCoverageAmountCents } = evaluateEligibility({
    prospect,
    owner,
    property: property ?? null,
    unit: unit ?? null,
    onboarded: prospect.pmsPropertyId === null,
  });
  const [ready] = await tx
    .update(prospects)
    .set({ status: "ready", eligibility: decision, effectiveCoverageAmountCents, updatedAt: sql`now()` })
    .where(eq(prospects.id, prospect.id))
    .returning();
  // spec Prospect status, processing → ready: `prospect.ready` is emitted with the decision.
  const [source] = await tx.select().from(sources).where(eq(sources.id, ready.sourceId));
  await emitProspectEvent(tx, "prospect.ready", ready, owner, source);
  return ready;
}
