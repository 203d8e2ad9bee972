import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors, type FieldErrors } from "../../../server/errors";
import { addJob } from "../../../server/jobs/define-task";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { residents } from "../../enrollment/renters/residents.table";
import { propertyOwners } from "../../owners/owners.table";
import { prospects } from "../../prospects/prospects.table";
import { units } from "../../roster/roster.table";
import { isoDay } from "../coverage";
import { emitPolicyEvent } from "../events";
import { latestCoverageOfPolicy } from "../latest-coverage";
import { type Policy, policies } from "../policies.table";
import { policyBuildDocuments } from "../policy__build_documents";
import { changePolicyStatus } from "../status/change-status";
import { revisionInput } from "./inputs";
import { actorOf, lockedPolicy, type RevisedState, revisedState } from "./locked-policy";
import { REVISION_MESSAGES as M } from "./messages";
import { type PolicyRevision, policyRevisions } from "./policy-revisions.table";
import { REVISABLE, type RevisionChanges, revisionFieldErrors, statusAfterRevision } from "./rules";

export { revisionInput };
export type RevisionInput = z.infer<typeof revisionInput>;

type Unit = typeof units.$inferSelect;

/** The unit a correction names, within the policy's building only (docs/decisions.md: a correction never moves buildings). */
async function correctedUnit(tx: Tx, policy: Policy, input: RevisionInput): Promise<{ unit?: Unit; fields: FieldErrors }> {
  if (input.unit_id !== undefined) {
    const [unit] = await tx.select().from(units).where(eq(units.id, input.unit_id));
    if (!unit) return { fields: { unit: [M.unitNotFound] } };
    if (unit.propertyId !== policy.propertyId) return { fields: { unit: [M.unitOfAnotherBuilding] } };
    return { unit, fields: {} };
  }
  if (input.unit_external_id !== undefined) {
    const [unit] = await tx
      .select()
      .from(units)
      .where(and(eq(units.propertyId, policy.propertyId), eq(units.externalSystemId, input.unit_external_id)));
    return unit ? { unit, fields: {} } : { fields: { unit: [M.unitNotFound] } };
  }
  return { fields: {} };
}

export type RevisionResult = { policy: Policy; revision: PolicyRevision; events: string[] };

/**
 * Revises a policy in the caller's transaction (docs/decisions.md, "Policies: revisions and cancellation"; spec "Ordering and retries": one
 * action, several events, no ordering). Locks the policy row, validates everything before writing
 * (a bad input changes nothing), writes the new values, re-derives the status from the new dates
 * through `changePolicyStatus` (an end moved before today cancels: `policy.canceled`), emits
 * `policy.updated` with the final state, adds the `policy__build_documents` job (a new archive under
 * a new key → `policy.documents_updated`), records the revision row and the audit row. The premium
 * is kept (docs/decisions.md, Policies: revisions and cancellation).
 */
export async function revisePolicy(
  tx: Tx,
  actor: AuditActor,
  policyId: number,
  input: RevisionInput,
  { now = new Date() }: { now?: Date } = {},
): Promise<RevisionResult> {
  const policy = await lockedPolicy(tx, policyId);
  if (!REVISABLE.includes(policy.status)) throw errors.conflict(M.notRevisable(policy.status));
  const [owner] = await tx.select({ max: propertyOwners.maxCoverageAmountCents }).from(propertyOwners).where(eq(propertyOwners.id, policy.ownerId));
  const requested: RevisionChanges = {
    coverageAmountCents: input.coverage_amount_cents,
    coverageStartDate: input.coverage_start_date,
    coverageEndDate: input.coverage_end_date,
  };
  const target = await correctedUnit(tx, policy, input);
  const fields = { ...revisionFieldErrors(requested, policy, owner?.max ?? null), ...target.fields };
  if (Object.keys(fields).length) throw errors.invalidFields(M.invalid, fields);

  // Only what differs is a change; a request that changes nothing is refused, not recorded.
  const changes: Partial<Policy> = {};
  if (requested.coverageAmountCents !== undefined && requested.coverageAmountCents !== policy.coverageAmountCents)
    changes.coverageAmountCents = requested.coverageAmountCents;
  if (requested.coverageStartDate !== undefined && requested.coverageStartDate !== policy.coverageStartDate)
    changes.coverageStartDate = requested.coverageStartDate;
  if (requested.coverageEndDate !== undefined && requested.coverageEndDate !== policy.coverageEndDate) changes.coverageEndDate = requested.coverageEndDate;
  if (target.unit && target.unit.id !== policy.unitId) {
    changes.unitId = target.unit.id;
    // The partner's PMS unit id names the old unit: the corrected unit's own (omitted when it has none).
    changes.pmsUnitId = target.unit.pmsUnitId;
  }
  if (Object.keys(changes).length === 0) throw errors.invalid(M.nothingToChange);

  const before = await revisedState(tx, policy);
  const [written] = await tx
    .update(policies)
    .set({ ...changes, updatedAt: now })
    .where(eq(policies.id, policyId))
    .returning();
  if (changes.unitId !== undefined) {
    // The renter's resident record follows the policy to its unit (unless they already hold that unit).
    await tx
      .update(residents)
      .set({ unitId: changes.unitId })
      .where(
        and(
          eq(residents.policyId, policyId),
          sql`not exists (select 1 from ${residents} r2 where r2.user_id = ${residents.userId} and r2.unit_id = ${changes.unitId})`,
        ),
      );
  }
  if (written.prospectId !== null) {
    // The prospect's latest_coverage shows this policy's amount (decisions §10), when it is its latest coverage.
    await tx
      .update(prospects)
      .set({ latestCoverage: latestCoverageOfPolicy(written) })
      .where(and(eq(prospects.id, written.prospectId), sql`${prospects.latestCoverage}->>'policy_number' = ${written.policyNumber}`));
  }

  const events: string[] = [];
  let current = written;
  const status = statusAfterRevision(written.status, { start: written.coverageStartDate, end: written.coverageEndDate }, isoDay(now));
  if (status !== written.status) {
    const canceled = status === "canceled";
    // The row is locked: the conditional update cannot lose here. policy.updated below carries the
    // new status, so an upcoming ↔ active move emits nothing more; a cancellation emits policy.canceled.
    const changed = await changePolicyStatus(tx, policyId, written.status, status, {
      actor: actorOf(actor),
      reason: canceled ? (input.note ?? M.revisionCancelReason) : input.note,
      event: canceled ? "policy.canceled" : null,
    });
    if (changed) current = changed;
    if (canceled) events.push("policy.canceled");
  }
  await emitPolicyEvent(tx, "policy.updated", current);
  events.push("policy.updated");
  await addJob(tx, policyBuildDocuments, { policyId });

  const after = await revisedState(tx, current);
  const [revision] = await tx
    .insert(policyRevisions)
    .values({ policyId, actor: actorOf(actor), before, after, note: input.note || null })
    .returning();
  await recordAudit(tx, actor, {
    action: "policies.revise",
    subject: { type: "policy", id: policyId },
    ownerId: policy.ownerId,
    before,
    after: { ...after, ...(input.note ? { note: input.note } : {}) },
  });
  return { policy: current, revision, events };
}

export type { RevisedState };
