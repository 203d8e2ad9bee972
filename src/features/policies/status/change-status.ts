import { and, asc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { prospects } from "../../prospects/tables";
import { emitPolicyEvent, type PolicyEvent } from "../events";
import { latestCoverageOfPolicy } from "../latest-coverage";
import { type Policy, type PolicyStatus, policies } from "../policies.table";
import { type PolicyStatusChange, policyStatusChanges } from "./status-changes.table";

/** The event a status change emits (spec Event catalog; decisions §11 "each status change emits its event"). */
export function eventOfStatusChange(to: PolicyStatus): PolicyEvent {
  if (to === "canceled") return "policy.canceled";
  if (to === "expired") return "policy.expired";
  // pending → upcoming → active: the payload's `status` changes, so partners hear the new state.
  return "policy.updated";
}

export type StatusChangeOptions = {
  /** `system:<task>`, `console:<email>` or `cli:<user>`. */
  actor: string;
  /** Internal only (never in a payload). */
  reason?: string;
  /** Emit this event instead of the status's own (undefined: the status's own; null: none). */
  event?: PolicyEvent | null;
};

/**
 * Moves a policy from `from` to `to` in the caller's transaction, once: the update is conditional on
 * the current status, so two workers (or a worker and staff) racing on the same policy change it
 * once and emit one event; the loser gets undefined. Records the change, keeps the prospect's
 * `latest_coverage.status` in step when this policy is its latest coverage, and emits the event.
 */
export async function changePolicyStatus(
  tx: Tx,
  policyId: number,
  from: PolicyStatus,
  to: PolicyStatus,
  options: StatusChangeOptions,
): Promise<Policy | undefined> {
  const [policy] = await tx
    .update(policies)
    .set({ status: to, updatedAt: new Date() })
    .where(and(eq(policies.id, policyId), eq(policies.status, from)))
    .returning();
  if (!policy) return undefined;
  await tx.insert(policyStatusChanges).values({ policyId, fromStatus: from, toStatus: to, reason: options.reason ?? null, actor: options.actor });
  if (policy.prospectId !== null) {
    await tx
      .update(prospects)
      .set({ latestCoverage: latestCoverageOfPolicy(policy) })
      .where(and(eq(prospects.id, policy.prospectId), sql`${prospects.latestCoverage}->>'policy_number' = ${policy.policyNumber}`));
  }
  const event = options.event === undefined ? eventOfStatusChange(to) : options.event;
  if (event) await emitPolicyEvent(tx, event, policy);
  return policy;
}

/** Records a policy's first status (issuance), so the history starts where the policy did. */
export async function recordInitialStatus(tx: Tx, policy: Policy, actor: string): Promise<void> {
  await tx.insert(policyStatusChanges).values({ policyId: policy.id, fromStatus: null, toStatus: policy.status, actor });
}

/** A policy's status history, oldest first. */
export async function statusHistoryOf(tx: Tx, policyId: number): Promise<PolicyStatusChange[]> {
  return tx.select().from(policyStatusChanges).where(eq(policyStatusChanges.policyId, policyId)).orderBy(asc(policyStatusChanges.id));
}
