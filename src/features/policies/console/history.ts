import { asc, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { units } from "../../roster/roster.table";
import { POLICY_STATUSES, type Policy } from "../policies.table";
import { policyRevisions } from "../revisions/policy-revisions.table";
import { statusHistoryOf } from "../status/change-status";

/** What the console's policy page shows beside the policy (docs/decisions.md, "Policies: revisions and cancellation"): its history and the units a correction may pick. */

const revisedState = z.object({
  coverage_amount_cents: z.number().int(),
  coverage_start_date: z.string(),
  coverage_end_date: z.string(),
  unit: z.object({ id: z.number().int(), name: z.string(), external_id: z.string().nullable() }),
  status: z.string(),
});

export const policyHistory = z.object({
  /** Oldest first; `reason` is internal (never in a payload). */
  status_history: z.array(
    z.object({
      from_status: z.enum(POLICY_STATUSES).nullable(),
      to_status: z.enum(POLICY_STATUSES),
      reason: z.string().nullable(),
      actor: z.string(),
      changed_at: z.string(),
    }),
  ),
  /** Newest first. */
  revisions: z.array(
    z.object({ id: z.number().int(), actor: z.string(), revised_at: z.string(), note: z.string().nullable(), before: revisedState, after: revisedState }),
  ),
  /** The units of the policy's building, by name: a unit correction stays within the building. */
  building_units: z.array(z.object({ id: z.number().int(), name: z.string(), external_id: z.string().nullable() })),
});
export type PolicyHistory = z.infer<typeof policyHistory>;

/** The most units the correction select lists (a building has far fewer). */
const UNIT_LIMIT = 2000;

export async function historyOfPolicy(db: Tx, policy: Pick<Policy, "id" | "propertyId">): Promise<PolicyHistory> {
  const [changes, revisions, buildingUnits] = await Promise.all([
    statusHistoryOf(db, policy.id),
    db.select().from(policyRevisions).where(eq(policyRevisions.policyId, policy.id)).orderBy(desc(policyRevisions.id)),
    db
      .select({ id: units.id, name: units.name, external_id: units.externalSystemId })
      .from(units)
      .where(eq(units.propertyId, policy.propertyId))
      .orderBy(asc(units.name), asc(units.id))
      .limit(UNIT_LIMIT),
  ]);
  return {
    status_history: changes.map((c) => ({
      from_status: c.fromStatus,
      to_status: c.toStatus,
      reason: c.reason,
      actor: c.actor,
      changed_at: c.changedAt.toISOString(),
    })),
    revisions: revisions.map((r) => ({ id: r.id, actor: r.actor, revised_at: r.revisedAt.toISOString(), note: r.note, before: r.before, after: r.after })),
    building_units: buildingUnits,
  };
}
