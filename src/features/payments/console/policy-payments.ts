import { and, desc, eq, inArray, isNotNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import { type Config, getConfig } from "../../../server/config";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { billingCharges, delinquencies } from "../../billing/billing.table";
import { delinquencyRef } from "../../billing/delinquencies";
import { renterPayUrl } from "../../messages/links";
import { policies } from "../../policies/policies.table";
import { refundsOfPolicy } from "../../policies/refunds/refunds";
import { dashboardUrl } from "../dashboard";
import { disputesOfPolicy } from "../disputes/disputes";
import { UNRESOLVED_STATUSES } from "../payment__reconcile";
import { type PaymentCharge, paymentCharges } from "../payments.table";
import { OUTCOME_CODES } from "../port";
import { REFUND_STATUSES } from "../refund-port";

/**
 * What staff see of a policy's money (decisions §18; docs/decisions.md, "Refunds, disputes and
 * reconciliation"): every payment attempt with the processor's id (linked to its dashboard for
 * Stripe), the refunds and the disputes. The console's policy page and `policy show` both read it.
 * Explicit allowlists: nothing of a card but brand and last four digits.
 */

export const policyPayment = z.object({
  id: z.string(),
  /** `enrollment`: paid in the renter flow; `billing`: a monthly premium or a settlement. */
  kind: z.enum(["enrollment", "billing"]),
  amount_cents: z.number().int(),
  status: z.string(),
  decline_code: z.string().nullable(),
  processor: z.string(),
  /** The processor's id of the payment (Stripe's PaymentIntent; the simulated processor's charge). */
  processor_id: z.string(),
  dashboard_url: z.string().nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  created_at: z.string(),
});

export const policyRefund = z.object({
  id: z.number().int(),
  amount_cents: z.number().int(),
  status: z.enum(REFUND_STATUSES),
  processor: z.string(),
  processor_refund_id: z.string().nullable(),
  /** The refunded payment's page at the processor. */
  dashboard_url: z.string().nullable(),
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const policyDispute = z.object({
  id: z.number().int(),
  processor: z.string(),
  processor_dispute_id: z.string(),
  amount_cents: z.number().int(),
  reason: z.string(),
  status: z.string(),
  open: z.boolean(),
  dashboard_url: z.string().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
});

/**
 * A monthly charge the bank would only take with the renter present (`authentication_required`, 3-D
 * Secure) opened the policy's delinquency: staff send the renter this link to pay on-session
 * (decisions §18 Monthly premiums; the renter account's pay-now page, built as the renter messages build it).
 */
export const onSessionPay = z.object({ delinquency_id: z.string(), amount_cents: z.number().int(), decline_code: z.string(), url: z.string() });

export const policyPayments = z.object({
  policy_id: z.number().int(),
  policy_number: z.string(),
  on_session_pay: onSessionPay.nullable(),
  payments: z.array(policyPayment),
  refunds: z.array(policyRefund),
  disputes: z.array(policyDispute),
});
export type PolicyPayments = z.infer<typeof policyPayments>;

/** The processor's id of a payment row: its PaymentIntent where it has one, else the row's own id. */
function processorIdOf(row: PaymentCharge): string {
  return row.intentId ?? row.id;
}

export async function paymentsOfPolicy(db: Tx, policyId: number, config: Pick<Config, "stripe"> = getConfig()): Promise<PolicyPayments> {
  const [policy] = await db.select().from(policies).where(eq(policies.id, policyId));
  if (!policy) throw errors.notFound(PAYMENTS_CONSOLE_MESSAGES.policyNotFound);
  const subjects = [`policy:${policy.policyNumber}`, ...(policy.applicationId === null ? [] : [`application:pa_${policy.applicationId}`])];
  const [charges, refunds, disputes, [needsRenter]] = await Promise.all([
    db.select().from(paymentCharges).where(inArray(paymentCharges.subject, subjects)).orderBy(desc(paymentCharges.createdAt)).limit(200),
    refundsOfPolicy(db, policy.id),
    disputesOfPolicy(db, policy.id),
    db
      .select({ id: delinquencies.id, amountCents: delinquencies.amountCents })
      .from(delinquencies)
      .innerJoin(billingCharges, eq(billingCharges.delinquencyId, delinquencies.id))
      .where(
        and(eq(delinquencies.policyId, policy.id), eq(delinquencies.status, "active"), eq(billingCharges.declineCode, OUTCOME_CODES.authenticationRequired)),
      )
      .limit(1),
  ]);
  const byId = new Map(charges.map((row) => [row.id, row]));
  return {
    policy_id: policy.id,
    policy_number: policy.policyNumber,
    on_session_pay: needsRenter
      ? {
          delinquency_id: delinquencyRef(needsRenter.id),
          amount_cents: needsRenter.amountCents,
          decline_code: OUTCOME_CODES.authenticationRequired,
          url: renterPayUrl(policy.id),
        }
      : null,
    payments: charges.map((row) => ({
      id: row.id,
      kind: row.subject?.startsWith("application:") ? "enrollment" : "billing",
      amount_cents: row.amountCents,
      status: row.status,
      decline_code: row.declineCode,
      processor: row.processor,
      processor_id: processorIdOf(row),
      dashboard_url: dashboardUrl(config, row.processor, "payment", processorIdOf(row)),
      card: row.brand && row.last4 ? { brand: row.brand, last4: row.last4 } : null,
      created_at: row.createdAt.toISOString(),
    })),
    refunds: refunds.map((row) => {
      const paid = byId.get(row.paymentChargeId);
      return {
        id: row.id,
        amount_cents: row.amountCents,
        status: row.status,
        processor: row.processor,
        processor_refund_id: row.processorRefundId,
        dashboard_url: paid ? dashboardUrl(config, row.processor, "payment", processorIdOf(paid)) : null,
        failure_reason: row.failureReason,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
    }),
    disputes: disputes.map((row) => ({
      id: row.id,
      processor: row.processor,
      processor_dispute_id: row.processorDisputeId,
      amount_cents: row.amountCents,
      reason: row.reason,
      status: row.status,
      open: row.closedAt === null,
      dashboard_url: dashboardUrl(config, row.processor, "dispute", row.processorDisputeId),
      opened_at: row.openedAt.toISOString(),
      closed_at: row.closedAt?.toISOString() ?? null,
    })),
  };
}

export const unresolvedPayment = z.object({
  id: z.string(),
  /** What it pays for (`application:pa_…`, `policy:<number>`). */
  subject: z.string().nullable(),
  /** The policy it paid for, when one exists (an application's payment may have issued none yet). */
  policy: z.object({ id: z.number().int(), policy_number: z.string() }).nullable(),
  amount_cents: z.number().int(),
  status: z.string(),
  processor: z.string(),
  processor_id: z.string(),
  dashboard_url: z.string().nullable(),
  created_at: z.string(),
});

/** After this long without an outcome, a payment is listed for staff (decisions §18 Reconciliation). */
export const UNRESOLVED_AFTER_MS = 60 * 60 * 1000;

/**
 * Payments whose outcome is still unknown an hour after they were created (decisions §18
 * Reconciliation: the console lists them), which reconciliation (`payment__reconcile`, every few
 * minutes after ten) has not resolved: the processor keeps them undecided, or cannot be reached.
 */
export async function unresolvedPayments(db: Tx, now = new Date(), config: Pick<Config, "stripe"> = getConfig()): Promise<z.infer<typeof unresolvedPayment>[]> {
  const rows = await db
    .select()
    .from(paymentCharges)
    .where(
      and(
        isNotNull(paymentCharges.intentId),
        inArray(paymentCharges.status, [...UNRESOLVED_STATUSES]),
        lt(paymentCharges.createdAt, new Date(now.getTime() - UNRESOLVED_AFTER_MS)),
      ),
    )
    .orderBy(paymentCharges.createdAt)
    .limit(200);
  const policyOf = await policiesOfSubjects(
    db,
    rows.map((row) => row.subject),
  );
  return rows.map((row) => ({
    id: row.id,
    subject: row.subject,
    policy: (row.subject && policyOf.get(row.subject)) || null,
    amount_cents: row.amountCents,
    status: row.status,
    processor: row.processor,
    processor_id: processorIdOf(row),
    dashboard_url: dashboardUrl(config, row.processor, "payment", processorIdOf(row)),
    created_at: row.createdAt.toISOString(),
  }));
}

/** `policy:<number>` and `application:pa_<id>` subjects to the policy they are (or were issued) for. */
async function policiesOfSubjects(db: Tx, subjects: (string | null)[]): Promise<Map<string, { id: number; policy_number: string }>> {
  const numbers = subjects.flatMap((subject) => (subject?.startsWith("policy:") ? [subject.slice("policy:".length)] : []));
  const applicationIds = subjects.flatMap((subject) => {
    const id = Number(subject?.match(/^application:pa_(\d+)$/)?.[1]);
    return Number.isSafeInteger(id) && id > 0 ? [id] : [];
  });
  if (numbers.length === 0 && applicationIds.length === 0) return new Map();
  const found = await db
    .select({ id: policies.id, number: policies.policyNumber, applicationId: policies.applicationId })
    .from(policies)
    .where(or(inArray(policies.policyNumber, numbers.length ? numbers : [""]), inArray(policies.applicationId, applicationIds.length ? applicationIds : [0])));
  const map = new Map<string, { id: number; policy_number: string }>();
  for (const row of found) {
    map.set(`policy:${row.number}`, { id: row.id, policy_number: row.number });
    if (row.applicationId !== null) map.set(`application:pa_${row.applicationId}`, { id: row.id, policy_number: row.number });
  }
  return map;
}

export const PAYMENTS_CONSOLE_MESSAGES = { policyNotFound: "Policy not found" } as const;
