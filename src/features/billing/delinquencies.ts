import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { noticeDelinquencyResolved, noticePaymentFailed } from "../messages/notices";
import type { Policy } from "../policies/policies.table";
import { type Delinquency, delinquencies } from "./billing.table";
import { emitDelinquencyEvent } from "./events";

/**
 * A declined month (decisions §11 Billing): opens the policy's delinquency with the month's amount
 * outstanding → `delinquency.created`, or, when one is already open, adds the amount to it and
 * emits nothing (the catalog has no update event; docs/decisions.md, Billing and delinquencies).
 * One statement on the one-active-per-policy index, so two runs declining two months of a policy
 * at once open one delinquency holding both.
 */
export async function recordMissedPayment(tx: Tx, policy: Policy, amountCents: number): Promise<{ delinquency: Delinquency; opened: boolean }> {
  const [row] = await tx
    .insert(delinquencies)
    .values({ policyId: policy.id, amountCents })
    .onConflictDoUpdate({
      target: delinquencies.policyId,
      targetWhere: sql`${delinquencies.status} = 'active'`,
      set: { amountCents: sql`${delinquencies.amountCents} + excluded.amount_cents`, updatedAt: new Date() },
    })
    .returning({ ...getTableColumns(delinquencies), opened: sql<boolean>`(xmax = 0)` });
  const { opened, ...delinquency } = row;
  if (opened) await emitDelinquencyEvent(tx, "delinquency.created", delinquency, policy);
  // decisions §19: every declined month tells the renter what is now due, with the link to pay.
  await noticePaymentFailed(tx, policy, delinquency);
  return { delinquency, opened };
}

/**
 * The policy's open delinquency, locked for the rest of `tx` (a settlement holds it while it charges).
 * `FOR NO KEY UPDATE`: it excludes another settlement and the cron's upsert as `FOR UPDATE` would, but
 * not the key-share lock of a foreign key, so the settlement can commit its `billing_charges` row
 * pointing at this delinquency through another connection meanwhile without waiting on itself.
 */
export async function lockOpenDelinquency(tx: Tx, policyId: number): Promise<Delinquency | undefined> {
  const [row] = await tx
    .select()
    .from(delinquencies)
    .where(and(eq(delinquencies.policyId, policyId), eq(delinquencies.status, "active")))
    .for("no key update");
  return row;
}

/** Settled (decisions §11): resolved, nothing outstanding (`amount_cents` 0) → `delinquency.resolved`. */
export async function resolveDelinquency(tx: Tx, delinquency: Delinquency, policy: Policy): Promise<Delinquency> {
  const [resolved] = await tx
    .update(delinquencies)
    .set({ status: "resolved", amountCents: 0, settledCents: delinquency.amountCents, resolvedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(delinquencies.id, delinquency.id), eq(delinquencies.status, "active")))
    .returning();
  await emitDelinquencyEvent(tx, "delinquency.resolved", resolved, policy);
  await noticeDelinquencyResolved(tx, policy, resolved);
  return resolved;
}

export const delinquencyRef = (id: number) => `delinquency_${id}`;
