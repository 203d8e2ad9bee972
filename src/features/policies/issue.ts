import { eq, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { addJob } from "../../server/jobs/define-task";
import { type Application, applications } from "../enrollment/applications/applications.table";
import { lockApplication, lockProspect } from "../enrollment/applications/service";
import { ensureRenterUser, linkResident } from "../enrollment/renters/renters";
import { noticePolicyPurchased } from "../messages/notices";
import { prospects } from "../prospects/prospects.table";
import { lockAddressForPolicy } from "../roster/address-lock";
import { coveragePeriod, formatPolicyNumber, isoDay, pricingOf, statusAtIssue } from "./coverage";
import { emitPolicyEvent } from "./events";
import { latestCoverageOfPolicy } from "./latest-coverage";
import { POLICY_MESSAGES as M } from "./messages";
import { type Policy, policies, policyNumberSequence } from "./policies.table";
import { policyBuildDocuments } from "./policy__build_documents";
import { recordInitialStatus } from "./status/change-status";

/**
 * decisions §10 step (4), §11: the paid, submitted insurance application becomes a policy →
 * `policy.created` (before documents exist, spec Policy payload notes), and a
 * `policy__build_documents` job in the same transaction builds the archive and emits
 * `policy.documents_updated`. The policy is `upcoming` when coverage starts after the payment day,
 * else `active` (it is `pending` only while a job is still issuing it; here issuance is one
 * transaction). The first policy against a building locks its address (decisions §11 Address lock).
 * The renter becomes a resident of the unit, linked to the policy (decisions §10 Renters).
 * Idempotent: the application's policy, once issued, is answered again without a second event.
 */
export async function issuePolicy(tx: Tx, application: Pick<Application, "id">, { paidAt }: { paidAt: Date }): Promise<{ policy: Policy; created: boolean }> {
  const current = await lockApplication(tx, application.id);
  const [existing] = await tx.select().from(policies).where(eq(policies.applicationId, current.id));
  if (existing) return { policy: existing, created: false };
  if (current.status !== "created") throw errors.conflict(M.applicationCanceled);
  if (current.outcome !== "quoted") throw errors.conflict(M.notQuoted);
  if (!current.submittedAt || !current.productType) throw errors.conflict(M.notSubmitted);
  if (current.productType === "cash_deposit") throw errors.conflict(M.notAPolicyProduct);
  const prospect = await lockProspect(tx, current.prospectId);
  if (prospect.propertyId === null || prospect.unitId === null) throw errors.conflict(M.unitMissing);
  const pricing = pricingOf(current.quote, current.productType, current.cadence ?? "upfront", prospect.effectiveCoverageAmountCents);
  if (!pricing) throw errors.conflict(M.productNotOffered);

  const paidOn = isoDay(paidAt);
  const period = coveragePeriod({ start: prospect.leaseStartDate, end: prospect.leaseEndDate }, paidOn);
  const [{ seq }] = await tx.execute<{ seq: string }>(sql`select nextval(${policyNumberSequence.seqName}::regclass)::text as seq`);
  const [policy] = await tx
    .insert(policies)
    .values({
      policyNumber: formatPolicyNumber(paidAt.getUTCFullYear(), Number(seq)),
      applicationId: current.id,
      prospectId: prospect.id,
      ownerId: prospect.ownerId,
      propertyId: prospect.propertyId,
      unitId: prospect.unitId,
      status: statusAtIssue(period.start, paidOn),
      productType: current.productType,
      productVersion: current.productType === "renter_guarantee_insurance" ? pricing.productVersion : null,
      coverageAmountCents: pricing.coverageAmountCents,
      coverageStartDate: period.start,
      coverageEndDate: period.end,
      premiumCents: pricing.premiumCents,
      cadence: current.cadence ?? "upfront",
      sourceProspectId: prospect.sourceProspectId,
      pmsType: prospect.pmsType,
      pmsPropertyId: prospect.pmsPropertyId,
      pmsUnitId: prospect.pmsUnitId,
      pmsResidentId: prospect.pmsProspectId,
      issuedAt: paidAt,
    })
    .returning();

  const userId = current.userId ?? (await ensureRenterUser(tx, prospect.email)).id;
  await Promise.all([
    linkResident(tx, { userId, ownerId: policy.ownerId, unitId: policy.unitId, policyId: policy.id }),
    tx.update(applications).set({ step: "result", updatedAt: new Date() }).where(eq(applications.id, current.id)),
    tx
      .update(prospects)
      .set({ latestCoverage: latestCoverageOfPolicy(policy) })
      .where(eq(prospects.id, prospect.id)),
    lockAddressForPolicy(tx, policy.propertyId),
    recordInitialStatus(tx, policy, "system:issuance"),
  ]);
  await emitPolicyEvent(tx, "policy.created", policy);
  // decisions §19: the purchase's receipt to the renter, in this transaction.
  await noticePolicyPurchased(tx, policy, current);
  await addJob(tx, policyBuildDocuments, { policyId: policy.id });
  return { policy, created: true };
}
