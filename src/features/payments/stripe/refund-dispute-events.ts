import { and, eq, or } from "drizzle-orm";
import type Stripe from "stripe";
import { getConfig } from "../../../server/config";
import type { Db } from "../../../server/db/client";
import { recordRefundOutcome } from "../../policies/refunds/refund__send";
import { policyRefunds } from "../../policies/refunds/refunds.table";
import { recordDispute } from "../disputes/disputes";
import { paymentCharges } from "../payments.table";
import type { StripeEventHandler } from "./event-handler";
import { StripeRefunds } from "./stripe-refunds";

function stripeRefunds(): StripeRefunds | undefined {
  const config = getConfig();
  return config.paymentProcessor === "stripe" && config.stripe ? new StripeRefunds(config.stripe) : undefined;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

/**
 * `charge.refunded` (decisions §18 Stripe's webhooks; docs/decisions.md, "Refunds, disputes and
 * reconciliation"): the charge's refunds are listed again from Stripe and each of ours is given
 * Stripe's current status, so a late or repeated event changes nothing and a pending refund that
 * succeeded shows so. A refund made elsewhere (Stripe's dashboard) is not ours and is left alone.
 */
async function onChargeRefunded(db: Db, event: Stripe.Event): Promise<void> {
  const port = stripeRefunds();
  const charge = event.data.object as Stripe.Charge;
  const intentId = idOf(charge?.payment_intent);
  if (!port || !intentId) return;
  const ours = await db
    .select({ id: policyRefunds.id, processorRefundId: policyRefunds.processorRefundId })
    .from(policyRefunds)
    .innerJoin(paymentCharges, eq(paymentCharges.id, policyRefunds.paymentChargeId))
    .where(eq(paymentCharges.intentId, intentId));
  if (ours.length === 0) return;
  for (const refund of await port.refundsOfIntent(intentId)) {
    const row = ours.find((candidate) => isOurs(candidate, refund));
    if (row) await recordRefundOutcome(db, row.id, refund);
  }
}

/**
 * `refund.updated`, `refund.failed` and `charge.refund.updated`: a refund that was `pending` settled
 * (or failed and gave the money back). Retrieved again, so the event's own copy, which may be older,
 * is never what we keep.
 */
async function onRefundUpdated(db: Db, event: Stripe.Event): Promise<void> {
  const port = stripeRefunds();
  const refundId = (event.data.object as Stripe.Refund)?.id;
  if (!port || !refundId) return;
  const refund = await port.refundWithOurs(refundId);
  const candidates = await db
    .select({ id: policyRefunds.id, processorRefundId: policyRefunds.processorRefundId })
    .from(policyRefunds)
    .where(and(eq(policyRefunds.processor, "stripe"), or(eq(policyRefunds.processorRefundId, refund.refundId), eq(policyRefunds.id, refund.ourRefundId ?? 0))));
  const row = candidates.find((candidate) => isOurs(candidate, refund));
  if (row) await recordRefundOutcome(db, row.id, refund);
}

/**
 * Stripe's refund is our row's when it carries the row's processor id, or, before the row learned it
 * (Stripe's webhook ahead of `refund__send`'s answer), when its metadata names the row.
 */
function isOurs(row: { id: number; processorRefundId: string | null }, refund: { refundId: string; ourRefundId: number | null }): boolean {
  return row.processorRefundId === refund.refundId || (row.processorRefundId === null && row.id === refund.ourRefundId);
}

/**
 * `charge.dispute.created` and `charge.dispute.closed`: the dispute is retrieved again and its
 * state recorded (`recordDispute`), so a `closed` arriving before `created` opens it closed and the
 * late `created` changes nothing.
 */
async function onDispute(db: Db, event: Stripe.Event): Promise<void> {
  const port = stripeRefunds();
  const dispute = event.data.object as Stripe.Dispute;
  if (!port || !dispute?.id) return;
  await recordDispute(db, await port.retrieveDispute(dispute.id));
}

export const refundDisputeHandlers: Record<string, StripeEventHandler> = {
  "charge.refunded": onChargeRefunded,
  "charge.refund.updated": onRefundUpdated,
  "refund.updated": onRefundUpdated,
  "refund.failed": onRefundUpdated,
  "charge.dispute.created": onDispute,
  "charge.dispute.updated": onDispute,
  "charge.dispute.closed": onDispute,
};
