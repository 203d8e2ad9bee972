import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { isoDay } from "../coverage";
import { type Policy, policies } from "../policies.table";
import { refundOnCancellation } from "../refunds/refunds";
import type { PolicyRefund } from "../refunds/refunds.table";
import { changePolicyStatus } from "../status/change-status";
import { cancellationInput } from "./inputs";
import { actorOf, lockedPolicy } from "./locked-policy";
import { REVISION_MESSAGES as M } from "./messages";

export { cancellationInput };

/**
 * Cancels a policy in the caller's transaction (decisions §11: `policy.canceled`, carrying no reason
 * or refund). Through `changePolicyStatus`, so two staff (or staff and the cron) racing change it
 * once and emit one event; the loser, and anyone canceling a canceled policy, gets a 409. The
 * documents are not rebuilt: the declarations show no status (docs/decisions.md). An upfront-paid
 * policy's unearned premium is refunded (decisions §18 Refunds; `refunds/refunds.ts`).
 */
export async function cancelPolicy(tx: Tx, actor: AuditActor, policyId: number, input: z.input<typeof cancellationInput> = {}): Promise<Policy> {
  const { reason } = cancellationInput.parse(input);
  const policy = await lockedPolicy(tx, policyId);
  if (policy.status === "canceled") throw errors.conflict(M.alreadyCanceled);
  if (policy.status === "expired") throw errors.conflict(M.notCancelable(policy.status));
  const refunds: PolicyRefund[] = [];
  // The refund is written before the renter's message, which shows it (decisions §19).
  const canceled = await changePolicyStatus(tx, policyId, policy.status, "canceled", {
    actor: actorOf(actor),
    reason: reason || undefined,
    onCanceled: async (inner, changed) => {
      const refund = await refundOnCancellation(inner, changed, isoDay(new Date()));
      if (refund) refunds.push(refund);
    },
  });
  if (!canceled) {
    // Only reachable if the status moved between the lock and the update (it cannot while locked).
    const [now] = await tx.select({ status: policies.status }).from(policies).where(eq(policies.id, policyId));
    throw errors.conflict(now?.status === "canceled" ? M.alreadyCanceled : M.notCancelable(now?.status ?? "missing"));
  }
  const [refund] = refunds;
  await recordAudit(tx, actor, {
    action: "policies.cancel",
    subject: { type: "policy", id: policyId },
    ownerId: policy.ownerId,
    before: { status: policy.status },
    after: { status: canceled.status, ...(reason ? { reason } : {}), ...(refund ? { refund_cents: refund.amountCents } : {}) },
  });
  return canceled;
}
