import { eq } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import type { AuditActor } from "../../audit/audit";
import { units } from "../../roster/roster.table";
import { type Policy, policies } from "../policies.table";
import { REVISION_MESSAGES as M } from "./messages";
import type { RevisedState } from "./policy-revisions.table";

export type { RevisedState };

/** `console:<email>` or `cli:<user>`: how status history and revision rows name who acted. */
export const actorOf = (actor: AuditActor) => ("user" in actor ? `console:${actor.user.email}` : `cli:${actor.cli}`);

/** The policy, its row locked for the rest of `tx` (a revision and a cancellation never interleave); 404 when there is none. */
export async function lockedPolicy(tx: Tx, policyId: number): Promise<Policy> {
  const [policy] = await tx.select().from(policies).where(eq(policies.id, policyId)).for("update");
  if (!policy) throw errors.notFound(M.notFound);
  return policy;
}

/** The id of the policy with this number (CLI `--policy NUMBER`); 404 when there is none. */
export async function policyIdByNumber(tx: Tx, policyNumber: string): Promise<number> {
  const [row] = await tx.select({ id: policies.id }).from(policies).where(eq(policies.policyNumber, policyNumber.trim()));
  if (!row) throw errors.notFound(M.policyNumberNotFound(policyNumber));
  return row.id;
}

/** The revisable state of a policy, as revision and audit rows keep it. */
export async function revisedState(tx: Tx, policy: Policy): Promise<RevisedState> {
  const [unit] = await tx.select({ name: units.name, externalId: units.externalSystemId }).from(units).where(eq(units.id, policy.unitId));
  return {
    coverage_amount_cents: policy.coverageAmountCents,
    coverage_start_date: policy.coverageStartDate,
    coverage_end_date: policy.coverageEndDate,
    unit: { id: policy.unitId, name: unit?.name ?? "", external_id: unit?.externalId ?? null },
    status: policy.status,
  };
}
