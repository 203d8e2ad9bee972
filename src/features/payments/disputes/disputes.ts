import { and, desc, eq, or, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../../server/db/client";
import { observePaymentDispute } from "../../../server/observability/metrics";
import { recordAudit } from "../../audit/audit";
import { billingCharges } from "../../billing/billing.table";
import { applications } from "../../enrollment/applications/applications.table";
import { policies } from "../../policies/policies.table";
import { paymentCharges } from "../payments.table";
import { type PaymentDispute, paymentDisputes } from "./disputes.table";

/**
 * Disputes (decisions §18 Disputes; docs/decisions.md, "Refunds, disputes and reconciliation"): the
 * processor tells us a renter's bank disputes a payment; we keep the dispute at the processor's
 * latest state, flag the policy the payment was for in the console, write an audit row when it
 * opens and when it ends, and count it in `pis_payment_disputes_total`.
 */

/** A dispute as the processor describes it now (from its event's object, or retrieved again). */
export type DisputeState = {
  processor: string;
  disputeId: string;
  /** The processor's charge and PaymentIntent disputed, as it names them. */
  chargeId: string | null;
  intentId: string | null;
  amountCents: number;
  reason: string;
  status: string;
};

/** Stripe's statuses of a dispute that is over (`warning_closed`: an inquiry that never became a dispute). */
export const CLOSED_DISPUTE_STATUSES: readonly string[] = ["won", "lost", "warning_closed", "prevented"];
const isClosed = (status: string) => CLOSED_DISPUTE_STATUSES.includes(status);
const outcomeOf = (status: string) => (status === "won" || status === "lost" ? status : "closed");

const ACTOR = (processor: string) => ({ system: `${processor}_webhook` });

/**
 * Records what the processor says of a dispute, idempotently and whatever the order its events come
 * in: the first word opens the row (an event that says it is already closed opens it closed); a
 * closed dispute is never reopened by an older event still saying `needs_response`; the same state
 * twice changes nothing. Answers the row as kept.
 */
export async function recordDispute(db: Db, state: DisputeState): Promise<PaymentDispute> {
  const counted: ("opened" | "won" | "lost" | "closed")[] = [];
  const kept = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(paymentDisputes)
      .where(and(eq(paymentDisputes.processor, state.processor), eq(paymentDisputes.processorDisputeId, state.disputeId)))
      .for("update");
    if (!existing) {
      const payment = await paymentOf(tx, state);
      const [inserted] = await tx
        .insert(paymentDisputes)
        .values({
          processor: state.processor,
          processorDisputeId: state.disputeId,
          processorChargeId: state.chargeId,
          intentId: state.intentId,
          paymentChargeId: payment.chargeId,
          policyId: payment.policy?.id ?? null,
          amountCents: state.amountCents,
          reason: state.reason,
          status: state.status,
          closedAt: isClosed(state.status) ? new Date() : null,
        })
        .onConflictDoNothing()
        .returning();
      // A concurrent handler of another event of the same dispute wrote it first: apply this state over it.
      if (!inserted) return recordDisputeUpdate(tx, state, counted);
      await audit(tx, inserted, payment.policy?.ownerId ?? null, "payments.dispute_opened", undefined);
      counted.push("opened");
      if (inserted.closedAt) {
        await audit(tx, inserted, payment.policy?.ownerId ?? null, "payments.dispute_closed", undefined);
        counted.push(outcomeOf(inserted.status));
      }
      return inserted;
    }
    return applyState(tx, existing, state, counted);
  });
  for (const outcome of counted) observePaymentDispute(outcome);
  return kept;
}

async function recordDisputeUpdate(tx: Tx, state: DisputeState, counted: ("opened" | "won" | "lost" | "closed")[]): Promise<PaymentDispute> {
  const [existing] = await tx
    .select()
    .from(paymentDisputes)
    .where(and(eq(paymentDisputes.processor, state.processor), eq(paymentDisputes.processorDisputeId, state.disputeId)))
    .for("update");
  return applyState(tx, existing, state, counted);
}

async function applyState(tx: Tx, existing: PaymentDispute, state: DisputeState, counted: ("opened" | "won" | "lost" | "closed")[]): Promise<PaymentDispute> {
  const wasClosed = existing.closedAt !== null;
  // An older event (still open) after the closing one: the dispute stays as it ended.
  if (wasClosed && !isClosed(state.status)) return existing;
  if (existing.status === state.status && existing.amountCents === state.amountCents && existing.reason === state.reason) return existing;
  const closing = !wasClosed && isClosed(state.status);
  const [updated] = await tx
    .update(paymentDisputes)
    .set({
      status: state.status,
      amountCents: state.amountCents,
      reason: state.reason,
      ...(closing ? { closedAt: new Date() } : {}),
      updatedAt: new Date(),
    })
    .where(eq(paymentDisputes.id, existing.id))
    .returning();
  if (closing) {
    const [policy] = existing.policyId ? await tx.select({ ownerId: policies.ownerId }).from(policies).where(eq(policies.id, existing.policyId)) : [];
    await audit(tx, updated, policy?.ownerId ?? null, "payments.dispute_closed", { status: existing.status });
    counted.push(outcomeOf(updated.status));
  }
  return updated;
}

async function audit(tx: Tx, dispute: PaymentDispute, ownerId: number | null, action: string, before: unknown): Promise<void> {
  await recordAudit(tx, ACTOR(dispute.processor), {
    action,
    subject: dispute.policyId ? { type: "policy", id: dispute.policyId } : { type: "payment_dispute", id: dispute.processorDisputeId },
    ownerId,
    before,
    after: { dispute_id: dispute.processorDisputeId, amount_cents: dispute.amountCents, reason: dispute.reason, status: dispute.status },
  });
}

/**
 * Our payment row and the policy it paid for: the enrollment payment of the policy's application,
 * or a monthly charge of billing. A payment we never recorded still gets its dispute row, unflagged.
 */
async function paymentOf(tx: Tx, state: DisputeState): Promise<{ chargeId: string | null; policy: { id: number; ownerId: number } | null }> {
  const matches: SQL[] = [];
  if (state.chargeId) matches.push(eq(paymentCharges.id, state.chargeId));
  if (state.intentId) matches.push(eq(paymentCharges.intentId, state.intentId));
  const [charge] = matches.length
    ? await tx
        .select({ id: paymentCharges.id })
        .from(paymentCharges)
        .where(or(...matches))
        .limit(1)
    : [];
  const ids = [charge?.id, state.chargeId].filter((id): id is string => typeof id === "string");
  if (ids.length === 0) return { chargeId: null, policy: null };
  const [enrolled] = await tx
    .select({ id: policies.id, ownerId: policies.ownerId })
    .from(applications)
    .innerJoin(policies, eq(policies.applicationId, applications.id))
    .where(or(...ids.map((id) => eq(applications.paymentChargeId, id))))
    .limit(1);
  if (enrolled) return { chargeId: charge?.id ?? null, policy: enrolled };
  const [billed] = await tx
    .select({ id: policies.id, ownerId: policies.ownerId })
    .from(billingCharges)
    .innerJoin(policies, eq(policies.id, billingCharges.policyId))
    .where(or(...ids.map((id) => eq(billingCharges.processorChargeId, id))))
    .limit(1);
  return { chargeId: charge?.id ?? null, policy: billed ?? null };
}

/** A policy's disputes, newest first (the console's policy page and `policy show`). */
export async function disputesOfPolicy(tx: Tx, policyId: number): Promise<PaymentDispute[]> {
  return tx.select().from(paymentDisputes).where(eq(paymentDisputes.policyId, policyId)).orderBy(desc(paymentDisputes.id));
}
