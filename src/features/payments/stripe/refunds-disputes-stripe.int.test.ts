import { and, eq } from "drizzle-orm";
import type { JobHelpers } from "graphile-worker";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { admin } from "../../../cli/admin-test-helpers";
import { getConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { webDoorUrl } from "../../../test/http";
import { queuedJobs, runDueJobs } from "../../../test/jobs";
import { stripeServerOfThisFile } from "../../../test/stripe-env";
import type { StripeTestServer } from "../../../test/stripe-server";
import { auditLog } from "../../audit/audit-log.table";
import type { PayView, ResultView } from "../../enrollment/flow/contract";
import { DETAILS, okView, renter, viewOf } from "../../enrollment/flow/flow-test-helpers";
import { chooseProduct, payWithToken, submitDetails } from "../../enrollment/flow/service";
import { isoDay } from "../../policies/coverage";
import { type Policy, policies } from "../../policies/policies.table";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { refundRowsOf } from "../../policies/refunds/refund-test-helpers";
import { paymentsOfPolicy } from "../console/policy-payments";
import { paymentDisputes } from "../disputes/disputes.table";
import { stripeEventHandle } from "./stripe_event__handle.handler";
import { stripeEvents } from "./stripe-events.table";
import { StripeRefunds } from "./stripe-refunds";

/**
 * Refunds and disputes through the door (decisions §18 Refunds, Disputes, Stripe's webhooks), against
 * the local Stripe-compatible server (src/test/stripe-server.ts, refunds and disputes in
 * src/test/stripe-server-refunds.ts) that the SDK reaches through `STRIPE_API_BASE`, and whose
 * webhooks are signed with `stripe.webhooks.generateTestHeaderString` and POSTed to `/stripe/webhook`.
 */
const partner = enrollmentPartnersOfThisFile();
const METRICS_TOKEN = "refunds-disputes-metrics-token-0123";
const server = stripeServerOfThisFile({ METRICS_TOKEN });
let stripe: StripeTestServer;

beforeAll(() => {
  stripe = server();
});

/** An upfront deposit insurance policy bought in the renter flow and paid through Stripe; its coverage set 40 days in. */
async function stripePaidPolicy(id: string): Promise<{ policy: Policy; intentId: string; paidCents: number }> {
  const p = await partner();
  const { link } = await renter(p, id);
  okView(await submitDetails(link, DETAILS));
  await runDueJobs();
  okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" }));
  const pay = (await viewOf(link)) as PayView;
  const done = okView(await payWithToken(link, { token: stripe.confirmationToken("pm_card_visa") })) as ResultView;
  const db = await getDb();
  const start = isoDay(new Date(Date.now() - 40 * 86_400_000));
  const end = isoDay(new Date(Date.now() + 324 * 86_400_000));
  const [policy] = await db
    .update(policies)
    .set({ status: "active", coverageStartDate: start, coverageEndDate: end })
    .where(eq(policies.policyNumber, done.policyNumber ?? ""))
    .returning();
  return { policy, intentId: pay.stripe?.intentId as string, paidCents: pay.amountDueCents };
}

const refundCreates = () => stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds");
const chargeOf = (intentId: string) => stripe.intents.get(intentId)?.object.latest_charge as string;
const settings = () => getConfig().stripe as NonNullable<ReturnType<typeof getConfig>["stripe"]>;

async function deliverNewest(type: string, objectId: string) {
  const event = stripe.eventFor(type, objectId);
  if (!event) throw new Error(`no ${type} for ${objectId}`);
  const answer = await stripe.deliver(event.id as string);
  expect(answer.status).toBe(200);
  return answer;
}

async function disputeCount(outcome: string): Promise<number> {
  const text = await (await fetch(`${await webDoorUrl()}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const match = text.match(new RegExp(`^pis_payment_disputes_total\\{outcome="${outcome}"\\} (\\d+)`, "m"));
  return match ? Number(match[1]) : 0;
}

async function disputeAudit(policyId: number) {
  const rows = await (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "policy"), eq(auditLog.subjectId, String(policyId))))
    .orderBy(auditLog.id);
  return rows.filter((row) => row.action.startsWith("payments.dispute")).map((row) => [row.action, row.actorLabel, (row.after as { status: string }).status]);
}

describe("refunds through Stripe (decisions §18 Refunds)", () => {
  it("canceling an upfront policy refunds the unearned days through Stripe once; charge.refunded confirms it; a replayed and a forged event change nothing; policy show prints it", async () => {
    const { policy, intentId, paidCents } = await stripePaidPolicy("stripe-refund-1");
    const canceled = await admin("policy", "cancel", "--policy", policy.policyNumber, "--reason", "Moved elsewhere");
    // 365 days of coverage, the 41 up to and including today earned: 324 unearned, rounded down.
    const expected = Math.floor((paidCents * 324) / 365);
    expect(canceled).toMatchObject({ code: 0, err: "", out: { status: "canceled", refund_cents: expected } });
    const [pending] = await refundRowsOf(policy.id);
    expect(pending).toMatchObject({ status: "pending", processor: "stripe", amountCents: expected, processorRefundId: null });

    await runDueJobs();
    const asked = refundCreates().filter((r) => r.params.payment_intent === intentId);
    expect(asked).toHaveLength(1);
    expect(asked[0].headers["idempotency-key"]).toBe(pending.idempotencyKey);
    expect(asked[0].params).toMatchObject({ amount: String(expected), reason: "requested_by_customer", metadata: { refund: String(pending.id) } });
    const [done] = await refundRowsOf(policy.id);
    expect(done).toMatchObject({ status: "succeeded", processorRefundId: expect.stringMatching(/^re_/), failureReason: null });
    expect(stripe.refunds.get(done.processorRefundId as string)).toMatchObject({ amount: expected, payment_intent: intentId, status: "succeeded" });

    // The same key asked again (a retried job whose answer was lost) answers the same refund: nothing refunded twice.
    const again = await new StripeRefunds(settings()).refund({
      idempotencyKey: pending.idempotencyKey,
      payment: { chargeId: pending.paymentChargeId, intentId },
      amountCents: expected,
      metadata: { refund: String(pending.id), policy_id: String(policy.id) },
    });
    expect(again.refundId).toBe(done.processorRefundId);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === intentId)).toHaveLength(1);

    // Stripe's charge.refunded: kept, handled by its job, the refund unchanged; its replay is a duplicate.
    const delivered = await deliverNewest("charge.refunded", chargeOf(intentId));
    expect(JSON.parse(delivered.body)).toEqual({ received: true, handled: true });
    await runDueJobs();
    const [kept] = await (await getDb())
      .select()
      .from(stripeEvents)
      .where(eq(stripeEvents.id, delivered.event.id as string));
    expect(kept.handledAt).not.toBeNull();
    expect(JSON.parse((await stripe.deliver(delivered.event.id as string)).body)).toMatchObject({ duplicate: true });
    // A forged charge.refunded (signed with another secret): 400, nothing kept.
    const forgedBody = JSON.stringify({ ...delivered.event, id: "evt_forged_refund" });
    const forged = await stripe.deliver(delivered.event.id as string, {
      body: forgedBody,
      signature: Stripe.webhooks.generateTestHeaderString({ payload: forgedBody, secret: "whsec_notthesecret" }),
    });
    expect(forged.status).toBe(400);
    expect(await (await getDb()).select().from(stripeEvents).where(eq(stripeEvents.id, "evt_forged_refund"))).toEqual([]);
    expect(await refundRowsOf(policy.id)).toMatchObject([{ status: "succeeded", processorRefundId: done.processorRefundId }]);

    const shown = await admin("policy", "show", "--policy", policy.policyNumber);
    expect(shown.out).toMatchObject({
      payments: [
        {
          kind: "enrollment",
          status: "succeeded",
          processor: "stripe",
          processor_id: intentId,
          dashboard_url: `https://dashboard.stripe.com/test/payments/${intentId}`,
        },
      ],
      refunds: [
        {
          amount_cents: expected,
          status: "succeeded",
          processor_refund_id: done.processorRefundId,
          dashboard_url: `https://dashboard.stripe.com/test/payments/${intentId}`,
        },
      ],
      disputes: [],
    });
  });

  it("a pending refund takes Stripe's status whatever order its events arrive in: the newer first, then the older; a failed one says why", async () => {
    const { policy, intentId } = await stripePaidPolicy("stripe-refund-2");
    stripe.refundsPending = true;
    try {
      await admin("policy", "cancel", "--policy", policy.policyNumber);
      await runDueJobs();
    } finally {
      stripe.refundsPending = false;
    }
    const [pending] = await refundRowsOf(policy.id);
    expect(pending).toMatchObject({ status: "pending", processorRefundId: expect.stringMatching(/^re_/) });
    stripe.settleRefund(pending.processorRefundId as string, "succeeded");
    // The refund's update arrives first, then the charge.refunded sent when it was made (its copy says pending).
    await deliverNewest("refund.updated", pending.processorRefundId as string);
    await runDueJobs();
    expect((await refundRowsOf(policy.id))[0].status).toBe("succeeded");
    const older = await deliverNewest("charge.refunded", chargeOf(intentId));
    expect((older.event.data as { object: { amount_refunded: number } }).object.amount_refunded > 0).toBe(true);
    await runDueJobs();
    expect((await refundRowsOf(policy.id))[0]).toMatchObject({ status: "succeeded", failureReason: null });

    const other = await stripePaidPolicy("stripe-refund-3");
    stripe.refundsPending = true;
    try {
      await admin("policy", "cancel", "--policy", other.policy.policyNumber);
      await runDueJobs();
    } finally {
      stripe.refundsPending = false;
    }
    const [second] = await refundRowsOf(other.policy.id);
    stripe.settleRefund(second.processorRefundId as string, "failed");
    await deliverNewest("refund.failed", second.processorRefundId as string);
    await runDueJobs();
    expect((await refundRowsOf(other.policy.id))[0]).toMatchObject({ status: "failed", failureReason: "declined" });
  });

  it("Stripe's webhook ahead of refund__send's answer: the refund is found by its metadata, and the job asks nothing more", async () => {
    const { policy, intentId } = await stripePaidPolicy("stripe-refund-4");
    await admin("policy", "cancel", "--policy", policy.policyNumber);
    const [row] = await refundRowsOf(policy.id);
    // The job's request reached Stripe, but its answer never came back (the worker stopped): Stripe made the refund.
    await new StripeRefunds(settings()).refund({
      idempotencyKey: row.idempotencyKey,
      payment: { chargeId: row.paymentChargeId, intentId },
      amountCents: row.amountCents,
      metadata: { refund: String(row.id), policy_id: String(policy.id) },
    });
    const delivered = await deliverNewest("charge.refunded", chargeOf(intentId));
    // The webhook's job runs before the refund's job is retried: the refund row learns Stripe's id and status from it.
    await stripeEventHandle.handler({ event_id: delivered.event.id as string }, {} as JobHelpers);
    const [after] = await refundRowsOf(policy.id);
    expect(after).toMatchObject({ status: "succeeded", processorRefundId: expect.stringMatching(/^re_/) });
    // Then the refund's job: it finds the refund known and asks Stripe nothing.
    const before = refundCreates().length;
    await runDueJobs();
    expect(await queuedJobs("refund__send")).toEqual([]);
    expect(refundCreates().length).toBe(before);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === intentId)).toHaveLength(1);
  });

  it("a refund Stripe refuses (already refunded from Stripe's dashboard) is kept failed with Stripe's reason, never retried", async () => {
    const { policy, intentId } = await stripePaidPolicy("stripe-refund-5");
    // Someone refunded the whole payment in Stripe's dashboard.
    await new Stripe(stripe.secretKey, { host: "127.0.0.1", port: Number(new URL(stripe.url).port), protocol: "http" }).refunds.create({
      payment_intent: intentId,
    });
    await admin("policy", "cancel", "--policy", policy.policyNumber);
    await runDueJobs();
    const [row] = await refundRowsOf(policy.id);
    expect(row).toMatchObject({ status: "failed", processorRefundId: null, failureReason: `Charge ${chargeOf(intentId)} has already been refunded.` });
    expect(await queuedJobs("refund__send")).toEqual([]);
  });
});

describe("disputes through Stripe (decisions §18 Disputes)", () => {
  it("a dispute created, reviewed, then lost flags the policy with its amount, reason and status, an audit row and a count at opening and closing", async () => {
    const { policy, intentId, paidCents } = await stripePaidPolicy("stripe-dispute-1");
    const opened = await disputeCount("opened");
    const lost = await disputeCount("lost");
    const disputeId = stripe.openDispute(intentId, { reason: "fraudulent" });
    const created = await deliverNewest("charge.dispute.created", disputeId);
    await runDueJobs();
    const db = await getDb();
    expect((await paymentsOfPolicy(db, policy.id)).disputes).toMatchObject([
      { processor_dispute_id: disputeId, amount_cents: paidCents, reason: "fraudulent", status: "needs_response", open: true, closed_at: null },
    ]);
    expect(await disputeCount("opened")).toBe(opened + 1);
    expect(await disputeAudit(policy.id)).toEqual([["payments.dispute_opened", "system:stripe_webhook", "needs_response"]]);

    stripe.setDisputeStatus(disputeId, "under_review");
    await deliverNewest("charge.dispute.updated", disputeId);
    await runDueJobs();
    expect((await paymentsOfPolicy(db, policy.id)).disputes[0]).toMatchObject({ status: "under_review", open: true });

    stripe.setDisputeStatus(disputeId, "lost");
    const closed = await deliverNewest("charge.dispute.closed", disputeId);
    await runDueJobs();
    const [shown] = (await paymentsOfPolicy(db, policy.id)).disputes;
    expect(shown).toMatchObject({ status: "lost", open: false, dashboard_url: `https://dashboard.stripe.com/test/disputes/${disputeId}` });
    expect(shown.closed_at).not.toBeNull();
    expect(await disputeCount("lost")).toBe(lost + 1);

    // Stripe retrying both events: duplicates, nothing audited or counted twice.
    expect(JSON.parse((await stripe.deliver(created.event.id as string)).body)).toMatchObject({ duplicate: true });
    expect(JSON.parse((await stripe.deliver(closed.event.id as string)).body)).toMatchObject({ duplicate: true });
    await runDueJobs();
    expect(await disputeAudit(policy.id)).toEqual([
      ["payments.dispute_opened", "system:stripe_webhook", "needs_response"],
      ["payments.dispute_closed", "system:stripe_webhook", "lost"],
    ]);
    expect(await disputeCount("opened")).toBe(opened + 1);
    expect(await disputeCount("lost")).toBe(lost + 1);
  });

  it("closed arriving before created: the dispute is kept as Stripe has it now (won), and the late created reopens nothing", async () => {
    const { policy, intentId } = await stripePaidPolicy("stripe-dispute-2");
    const won = await disputeCount("won");
    const disputeId = stripe.openDispute(intentId, { reason: "product_not_received", amount: 1000 });
    stripe.setDisputeStatus(disputeId, "won");
    await deliverNewest("charge.dispute.closed", disputeId);
    await runDueJobs();
    await deliverNewest("charge.dispute.created", disputeId);
    await runDueJobs();
    const [row] = await (await getDb()).select().from(paymentDisputes).where(eq(paymentDisputes.processorDisputeId, disputeId));
    expect(row).toMatchObject({ policyId: policy.id, status: "won", amountCents: 1000, reason: "product_not_received" });
    expect(row.closedAt).not.toBeNull();
    expect((await disputeAudit(policy.id)).map(([action]) => action)).toEqual(["payments.dispute_opened", "payments.dispute_closed"]);
    expect(await disputeCount("won")).toBe(won + 1);
  });

  it("canceling a policy whose payment is under dispute: Stripe refuses the refund (charge_disputed), kept failed with its reason", async () => {
    const { policy, intentId } = await stripePaidPolicy("stripe-dispute-4");
    stripe.openDispute(intentId);
    await admin("policy", "cancel", "--policy", policy.policyNumber);
    await runDueJobs();
    expect(await refundRowsOf(policy.id)).toMatchObject([
      { status: "failed", processorRefundId: null, failureReason: `Charge ${chargeOf(intentId)} has been charged back; cannot issue a refund.` },
    ]);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === intentId)).toEqual([]);
  });

  it("a forged dispute event is refused (400) and flags nothing", async () => {
    const { policy, intentId } = await stripePaidPolicy("stripe-dispute-3");
    const disputeId = stripe.openDispute(intentId);
    const event = stripe.eventFor("charge.dispute.created", disputeId) as Record<string, unknown>;
    const body = JSON.stringify(event);
    const forged = await stripe.deliver(event.id as string, {
      body,
      signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: "whsec_other" }),
    });
    expect(forged.status).toBe(400);
    const stale = await stripe.deliver(event.id as string, {
      body,
      signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: stripe.webhookSecret, timestamp: Math.floor(Date.now() / 1000) - 301 }),
    });
    expect(stale.status).toBe(400);
    await runDueJobs();
    expect((await paymentsOfPolicy(await getDb(), policy.id)).disputes).toEqual([]);
    expect(await disputeAudit(policy.id)).toEqual([]);
  });
});
