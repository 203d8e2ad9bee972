import { and, asc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { noticeCancellations } from "../../messages/notices";
import { prospects } from "../../prospects/prospects.table";
import { emitPolicyEvents, type PolicyEvent } from "../events";
import { latestCoverageOfPolicy } from "../latest-coverage";
import { LIFECYCLE_MESSAGES } from "../messages";
import { type Policy, type PolicyStatus, policies } from "../policies.table";
import { canChangeStatus, eventOfStatusChange } from "./rules";
import { type PolicyStatusChange, policyStatusChanges } from "./status-changes.table";

export { eventOfStatusChange } from "./rules";

export type StatusChangeOptions = {
  /** `system:<task>`, `console:<email>` or `cli:<user>`. */
  actor: string;
  /** Internal only (never in a payload). */
  reason?: string;
  /** Emit this event instead of the status's own (undefined: the status's own; null: none). */
  event?: PolicyEvent | null;
  /**
   * What the cause does for each policy it canceled once the history row exists and before the renter
   * is told (cancelPolicy: the refund, whose key names that row and whose figure the message shows).
   */
  onCanceled?: (tx: Tx, policy: Policy) => Promise<unknown>;
};

/** A policy whose status a conditional update just changed, and the status it left. */
export type ChangedPolicy = { policy: Policy; from: PolicyStatus };

/**
 * Moves a policy from `from` to `to` in the caller's transaction, once: the update is conditional on
 * the current status, so two workers (or a worker and staff) racing on the same policy change it
 * once and emit one event; the loser gets undefined. Records the change, keeps the prospect's
 * `latest_coverage.status` in step when this policy is its latest coverage, and emits the event.
 * A change the rules forbid (out of `canceled` or `expired`, back to `pending`) is a 409.
 */
export async function changePolicyStatus(
  tx: Tx,
  policyId: number,
  from: PolicyStatus,
  to: PolicyStatus,
  options: StatusChangeOptions,
): Promise<Policy | undefined> {
  if (!canChangeStatus(from, to)) throw errors.conflict(LIFECYCLE_MESSAGES.terminal(from, to));
  const [policy] = await tx
    .update(policies)
    .set({ status: to, updatedAt: new Date() })
    .where(and(eq(policies.id, policyId), eq(policies.status, from)))
    .returning();
  if (!policy) return undefined;
  await recordStatusChanges(tx, [{ policy, from }], options);
  return policy;
}

/**
 * What follows status changes a conditional update made (one, or a sweep's batch), in three
 * statements however many: the history rows, each change's event (its status's own unless `event`
 * says), and the prospects' `latest_coverage.status` where the policy is their latest coverage.
 */
export async function recordStatusChanges(tx: Tx, changed: readonly ChangedPolicy[], options: StatusChangeOptions): Promise<void> {
  if (changed.length === 0) return;
  const history = changed.map(({ policy, from }) => ({ policy_id: policy.id, from_status: from, to_status: policy.status }));
  await tx.execute(sql`
    insert into ${policyStatusChanges} (policy_id, from_status, to_status, reason, actor)
    select h.policy_id, h.from_status, h.to_status, ${options.reason ?? null}::text, ${options.actor}::text
    from json_to_recordset(${JSON.stringify(history)}::json) as h(policy_id int, from_status text, to_status text)`);
  await emitPolicyEvents(
    tx,
    changed.flatMap(({ policy }) => {
      const event = options.event === undefined ? eventOfStatusChange(policy.status) : options.event;
      return event ? [{ event, policy }] : [];
    }),
  );
  if (options.onCanceled) {
    for (const { policy } of changed) if (policy.status === "canceled") await options.onCanceled(tx, policy);
  }
  // decisions §19: a canceled policy's renter is told, whatever canceled it (with the refund, when the cause made one).
  await noticeCancellations(
    tx,
    changed.map(({ policy }) => policy),
  );
  // Last, so the prospects' rows (which partner upserts write too) are held only until the commit.
  const covered = changed
    .filter(({ policy }) => policy.prospectId !== null)
    .map(({ policy }) => ({ prospect_id: policy.prospectId, policy_number: policy.policyNumber, coverage: latestCoverageOfPolicy(policy) }));
  if (covered.length) {
    await tx.execute(sql`
      update ${prospects} p set latest_coverage = v.coverage
      from json_to_recordset(${JSON.stringify(covered)}::json) as v(prospect_id int, policy_number text, coverage jsonb)
      where p.id = v.prospect_id and p.latest_coverage->>'policy_number' = v.policy_number`);
  }
}

/** Records a policy's first status (issuance), so the history starts where the policy did. */
export async function recordInitialStatus(tx: Tx, policy: Policy, actor: string): Promise<void> {
  await tx.insert(policyStatusChanges).values({ policyId: policy.id, fromStatus: null, toStatus: policy.status, actor });
}

/** A policy's status history, oldest first. */
export async function statusHistoryOf(tx: Tx, policyId: number): Promise<PolicyStatusChange[]> {
  return tx.select().from(policyStatusChanges).where(eq(policyStatusChanges.policyId, policyId)).orderBy(asc(policyStatusChanges.id));
}
