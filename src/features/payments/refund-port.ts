import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Db, getDb } from "../../server/db/client";
import { errors } from "../../server/errors";
import { PAYMENT_MESSAGES } from "./messages";
import { paymentCharges } from "./payments.table";

/**
 * Refunds through the processor that took the payment (decisions §18 Refunds; docs/decisions.md,
 * "Refunds, disputes and reconciliation"). A port of its own beside the payment port: the pay step
 * and billing never refund, and a refund names a payment already recorded (our `ch_…` row, and the
 * processor's PaymentIntent when it has one), never a card.
 */

/** Where a refund stands at the processor (Stripe's refund statuses; the simulator answers `succeeded`). */
export const REFUND_STATUSES = ["pending", "requires_action", "succeeded", "failed", "canceled"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export type RefundRequest = {
  /** `refund:<policy>:<cancellation>` (decisions §18): the same key never refunds twice. */
  idempotencyKey: string;
  /** Our payment row (`payment_charges.id`) and the processor's PaymentIntent of it, when any. */
  payment: { chargeId: string; intentId: string | null };
  amountCents: number;
  metadata: Record<string, string>;
};

export type RefundOutcome = { refundId: string; status: RefundStatus; amountCents: number; failureReason: string | null };

export interface RefundPort {
  /** The processor's name, as recorded with the payment (`simulated`, `stripe`). */
  readonly name: string;
  /** Refunds once per key; a refund the processor refuses is an `invalid` error naming why. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** What the processor says of a refund now (a pending one settles later). */
  retrieveRefund(refundId: string): Promise<RefundOutcome>;
}

/**
 * Staging's refunds: nothing is contacted. The payment must be a succeeded charge of the simulated
 * processor for at least the amount; the refund's id is derived from the key, so the same key
 * answers the same refund (as the processor's idempotency would) without a table of its own.
 */
export class SimulatedRefunds implements RefundPort {
  readonly name = "simulated";
  readonly #db?: Db;

  constructor(options: { db?: Db } = {}) {
    this.#db = options.db;
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) throw errors.invalid(PAYMENT_MESSAGES.amount, "amountCents");
    const db = this.#db ?? (await getDb());
    const [charge] = await db.select().from(paymentCharges).where(eq(paymentCharges.id, request.payment.chargeId));
    if (!charge || charge.processor !== this.name) throw errors.invalid(REFUND_MESSAGES.paymentUnknown, "payment");
    if (charge.status !== "succeeded") throw errors.invalid(REFUND_MESSAGES.paymentNotSucceeded, "payment");
    if (request.amountCents > charge.amountCents) throw errors.invalid(REFUND_MESSAGES.moreThanPaid, "amountCents");
    return { refundId: simulatedRefundId(request.idempotencyKey), status: "succeeded", amountCents: request.amountCents, failureReason: null };
  }

  async retrieveRefund(refundId: string): Promise<RefundOutcome> {
    throw errors.notFound(`${REFUND_MESSAGES.refundUnknown}: ${refundId}`);
  }
}

export const simulatedRefundId = (key: string) => `re_sim_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;

export const REFUND_MESSAGES = {
  paymentUnknown: "The payment to refund is not one this processor took",
  paymentNotSucceeded: "Only a succeeded payment can be refunded",
  moreThanPaid: "A refund cannot be more than the payment",
  refundUnknown: "No such refund",
} as const;
