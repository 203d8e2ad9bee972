import { invalid, type Json, missing, nowSeconds, type ServerState, StripeError, stripeId } from "./stripe-server-common";

/**
 * Refunds and disputes of the local Stripe-compatible server (src/test/stripe-server.ts), shaped as
 * the `stripe` SDK's `Stripe.Refund` and `Stripe.Dispute` types and Stripe's API reference describe
 * them: `POST /v1/refunds` (of a PaymentIntent's succeeded charge, or a charge), `GET /v1/refunds/:id`,
 * `GET /v1/refunds?payment_intent=…`, `GET /v1/disputes/:id`, `POST /v1/disputes/:id/close`. Refusals
 * use Stripe's codes (`charge_already_refunded`, `amount_too_large`, `charge_disputed`,
 * `parameter_invalid_integer`). Events as Stripe sends them: `refund.created` and `charge.refunded` on
 * a refund, `refund.updated`/`charge.refund.updated` (and `refund.failed`) when a pending one settles,
 * `charge.dispute.created`/`updated`/`closed`.
 *
 * A dispute cannot be asked for through the API (a renter's bank opens it): tests open and move one
 * with `openDispute` and `setDisputeStatus`, as Stripe's test cards and evidence strings do in test mode.
 */

const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"];
const CLOSED = ["won", "lost", "warning_closed", "prevented"];
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export type RefundsAndDisputes = {
  refunds: Map<string, Json>;
  disputes: Map<string, Json>;
  /** New refunds start `pending` (as bank transfers and some cards do) until `settleRefund`. */
  refundsPending: boolean;
  /** A pending refund ends `succeeded` or `failed` (failure_reason `declined`; the charge's amount is given back). */
  settleRefund(refundId: string, outcome: "succeeded" | "failed"): void;
  /** The renter's bank disputes the intent's succeeded charge (`needs_response`): `charge.dispute.created`. Answers the dispute id. */
  openDispute(intentId: string, options?: { reason?: string; amount?: number }): string;
  /** The dispute moves on: `charge.dispute.closed` for won, lost, warning_closed or prevented, else `charge.dispute.updated`. */
  setDisputeStatus(disputeId: string, status: string): void;
  /** The requests of this part; `undefined` when the path is not one of them. */
  route(method: string, path: string, params: Json): Json | undefined;
};

export function refundsAndDisputes(state: ServerState): RefundsAndDisputes {
  const refunds = new Map<string, Json>();
  const disputes = new Map<string, Json>();

  function succeededChargeOf(intentId: string): Json {
    const intent = state.intents.get(intentId);
    if (!intent) throw missing("payment_intent", intentId);
    const charge = intent.object.latest_charge ? state.charges.get(intent.object.latest_charge as string) : undefined;
    if (charge?.status !== "succeeded") throw invalid(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, "payment_intent");
    return charge;
  }

  function openDisputeOf(chargeId: string): Json | undefined {
    return [...disputes.values()].find((dispute) => dispute.charge === chargeId && !CLOSED.includes(dispute.status as string));
  }

  function createRefund(params: Json): Json {
    let charge: Json | undefined;
    if (params.payment_intent) charge = succeededChargeOf(params.payment_intent as string);
    else if (params.charge) {
      charge = state.charges.get(params.charge as string);
      if (!charge) throw missing("charge", params.charge as string);
    } else throw invalid("One of the following params should be provided for this request: payment_intent or charge.");
    const chargeId = charge.id as string;
    const remaining = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = params.amount === undefined ? remaining : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) throw invalid("Invalid positive integer", "amount", "parameter_invalid_integer");
    if (params.reason !== undefined && !REFUND_REASONS.includes(params.reason as string))
      throw invalid(`Invalid reason: must be one of ${REFUND_REASONS.join(", ")}`, "reason");
    if (openDisputeOf(chargeId)) throw invalid(`Charge ${chargeId} has been charged back; cannot issue a refund.`, undefined, "charge_disputed");
    if (remaining <= 0) throw invalid(`Charge ${chargeId} has already been refunded.`, undefined, "charge_already_refunded");
    if (amount > remaining)
      throw invalid(`Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(remaining)})`, "amount", "amount_too_large");
    const refund: Json = {
      id: stripeId("re"),
      object: "refund",
      amount,
      balance_transaction: stripeId("txn"),
      charge: chargeId,
      created: nowSeconds(),
      currency: charge.currency,
      customer: charge.customer ?? null,
      customer_account: null,
      metadata: params.metadata ?? {},
      payment_intent: charge.payment_intent ?? null,
      payment_method: charge.payment_method ?? null,
      reason: params.reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: api.refundsPending ? "pending" : "succeeded",
      transfer_reversal: null,
      destination_details: { type: "card", card: { type: "refund", reference_status: "pending" } },
    };
    refunds.set(refund.id as string, refund);
    // Stripe counts a pending refund as refunded; a failed one gives the amount back.
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    state.emit("refund.created", refund);
    state.emit("charge.refunded", charge);
    return refund;
  }

  function listRefunds(params: Json): Json {
    const limit = params.limit === undefined ? 10 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid("Invalid integer: must be between 1 and 100", "limit");
    const data = [...refunds.values()]
      .filter((refund) => (!params.payment_intent || refund.payment_intent === params.payment_intent) && (!params.charge || refund.charge === params.charge))
      .reverse();
    return { object: "list", data: data.slice(0, limit), has_more: data.length > limit, url: "/v1/refunds" };
  }

  function refundOf(refundId: string): Json {
    const refund = refunds.get(refundId);
    if (!refund) throw missing("refund", refundId);
    return refund;
  }

  function disputeOf(disputeId: string): Json {
    const dispute = disputes.get(disputeId);
    if (!dispute) throw missing("dispute", disputeId);
    return dispute;
  }

  const api: RefundsAndDisputes = {
    refunds,
    disputes,
    refundsPending: false,
    settleRefund(refundId, outcome) {
      const refund = refundOf(refundId);
      if (refund.status !== "pending") throw new Error(`refund ${refundId} is ${refund.status}`);
      refund.status = outcome;
      if (outcome === "failed") {
        refund.failure_reason = "declined";
        const charge = state.charges.get(refund.charge as string) as Json;
        charge.amount_refunded = (charge.amount_refunded as number) - (refund.amount as number);
        charge.refunded = false;
      }
      state.emit("refund.updated", refund);
      state.emit("charge.refund.updated", refund);
      if (outcome === "failed") state.emit("refund.failed", refund);
    },
    openDispute(intentId, options = {}) {
      const charge = succeededChargeOf(intentId);
      if (openDisputeOf(charge.id as string)) throw new Error(`charge ${charge.id} is already disputed`);
      const created = nowSeconds();
      const dispute: Json = {
        id: stripeId("dp"),
        object: "dispute",
        amount: options.amount ?? charge.amount,
        balance_transactions: [],
        charge: charge.id,
        created,
        currency: charge.currency,
        enhanced_eligibility_types: [],
        evidence: { product_description: null, customer_email_address: null, uncategorized_text: null },
        evidence_details: {
          due_by: created + 7 * 86_400,
          enhanced_eligibility: {},
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        network_reason_code: null,
        payment_intent: charge.payment_intent,
        payment_method_details: { type: "card", card: { brand: (charge.payment_method_details as { card: { brand: string } }).card.brand } },
        reason: options.reason ?? "fraudulent",
        status: "needs_response",
      };
      disputes.set(dispute.id as string, dispute);
      charge.disputed = true;
      state.emit("charge.dispute.created", dispute);
      return dispute.id as string;
    },
    setDisputeStatus(disputeId, status) {
      const dispute = disputeOf(disputeId);
      if (CLOSED.includes(dispute.status as string)) throw new Error(`dispute ${disputeId} is closed (${dispute.status})`);
      dispute.status = status;
      state.emit(CLOSED.includes(status) ? "charge.dispute.closed" : "charge.dispute.updated", dispute);
    },
    route(method, path, params) {
      if (method === "POST" && path === "/v1/refunds") return createRefund(params);
      if (method === "GET" && path === "/v1/refunds") return listRefunds(params);
      const refundMatch = method === "GET" ? path.match(/^\/v1\/refunds\/([^/]+)$/) : null;
      if (refundMatch) return refundOf(refundMatch[1]);
      const disputeMatch = method === "GET" ? path.match(/^\/v1\/disputes\/([^/]+)$/) : null;
      if (disputeMatch) return disputeOf(disputeMatch[1]);
      const closeMatch = method === "POST" ? path.match(/^\/v1\/disputes\/([^/]+)\/close$/) : null;
      if (closeMatch) {
        // Closing is accepting the dispute: it is lost (Stripe's "Close a dispute").
        const dispute = disputeOf(closeMatch[1]);
        if (CLOSED.includes(dispute.status as string))
          throw new StripeError(400, { type: "invalid_request_error", message: `This dispute is already closed.` });
        api.setDisputeStatus(dispute.id as string, "lost");
        return dispute;
      }
      return undefined;
    },
  };
  return api;
}
