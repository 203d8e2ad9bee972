import type Stripe from "stripe";
import { errors } from "../../../server/errors";
import { logger } from "../../../server/log";
import type { DisputeState } from "../disputes/disputes";
import { REFUND_MESSAGES, type RefundOutcome, type RefundPort, type RefundRequest, type RefundStatus } from "../refund-port";
import { isStripeError, type StripeSettings, stripeClient } from "./stripe-sdk";

const STATUSES: readonly RefundStatus[] = ["pending", "requires_action", "succeeded", "failed", "canceled"];

/**
 * Refunds and disputes through Stripe (decisions §18 Refunds, Disputes): a refund of the recorded
 * PaymentIntent with our `Idempotency-Key` (`refund:<policy>:<cancellation>`), and a dispute
 * retrieved again so its state, not an event's arrival order, is what we keep. Apart from the
 * payment paths' adapter (`stripe-processor.ts`); the same SDK client settings.
 */
export class StripeRefunds implements RefundPort {
  readonly name = "stripe";
  readonly #stripe: () => Promise<Stripe>;

  constructor(settings: StripeSettings) {
    this.#stripe = stripeClient(settings);
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    if (!request.payment.intentId) throw errors.invalid(REFUND_MESSAGES.paymentUnknown, "payment");
    const intentId = request.payment.intentId;
    const refund = await this.#call(async () =>
      (await this.#stripe()).refunds.create(
        { payment_intent: intentId, amount: request.amountCents, reason: "requested_by_customer", metadata: request.metadata },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return outcomeOf(refund);
  }

  async retrieveRefund(refundId: string): Promise<RefundOutcome> {
    return outcomeOf(await this.#call(async () => (await this.#stripe()).refunds.retrieve(refundId)));
  }

  /**
   * The refunds of a PaymentIntent as Stripe keeps them now (a `charge.refunded` event names the
   * charge), each with our refund row's id from its metadata (`refund`), so a refund whose answer
   * never reached `refund__send` (a connection lost after Stripe made it) is still found.
   */
  async refundsOfIntent(intentId: string): Promise<(RefundOutcome & { ourRefundId: number | null })[]> {
    const list = await this.#call(async () => (await this.#stripe()).refunds.list({ payment_intent: intentId, limit: 100 }));
    return list.data.map((refund) => ({ ...outcomeOf(refund), ourRefundId: ourRefundIdOf(refund) }));
  }

  /** One refund as Stripe keeps it now, with our row's id from its metadata (`refund.updated` events). */
  async refundWithOurs(refundId: string): Promise<RefundOutcome & { ourRefundId: number | null }> {
    const refund = await this.#call(async () => (await this.#stripe()).refunds.retrieve(refundId));
    return { ...outcomeOf(refund), ourRefundId: ourRefundIdOf(refund) };
  }

  async retrieveDispute(disputeId: string): Promise<DisputeState> {
    const dispute = await this.#call(async () => (await this.#stripe()).disputes.retrieve(disputeId));
    return disputeStateOf(dispute);
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!isStripeError(error)) throw error;
      logger().error({ stripeType: error.type, code: error.code, requestId: error.requestId, status: error.statusCode }, "stripe refund request failed");
      // Stripe refusing the refund itself (already refunded, amount too large): recorded as failed, never retried.
      if (error.type === "StripeInvalidRequestError" && error.statusCode !== 404 && error.statusCode !== 429) throw errors.invalid(error.message, "payment");
      if (error.statusCode === 404) throw errors.notFound(REFUND_MESSAGES.refundUnknown);
      throw errors.unavailable("Stripe could not be reached: the refund is asked again later");
    }
  }
}

function ourRefundIdOf(refund: Stripe.Refund): number | null {
  const value = Number(refund.metadata?.refund);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

function outcomeOf(refund: Stripe.Refund): RefundOutcome {
  const status = STATUSES.includes(refund.status as RefundStatus) ? (refund.status as RefundStatus) : "pending";
  return { refundId: refund.id, status, amountCents: refund.amount, failureReason: refund.failure_reason ?? null };
}

export function disputeStateOf(dispute: Stripe.Dispute): DisputeState {
  const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));
  return {
    processor: "stripe",
    disputeId: dispute.id,
    chargeId: idOf(dispute.charge),
    intentId: idOf(dispute.payment_intent),
    amountCents: dispute.amount,
    reason: dispute.reason,
    status: dispute.status,
  };
}
