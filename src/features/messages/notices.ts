import { and, eq, gt, inArray, lte } from "drizzle-orm";
import type { Db, Tx } from "../../server/db/client";
import type { Application } from "../enrollment/applications/applications.table";
import { residents } from "../enrollment/renters/residents.table";
import { renterUsers } from "../enrollment/renters/users.table";
import { PRODUCT_NAMES } from "../policies/documents/declarations";
import { type Policy, policies } from "../policies/policies.table";
import { refundsOfPolicy } from "../policies/refunds/refunds";
import { prospects } from "../prospects/prospects.table";
import { renterAccountUrl, renterPayUrl } from "./links";
import { queueRenterMessage, type RenterMessageInput } from "./queue";

/**
 * The renter messages of decisions §19, one function per cause, each called once from the code that
 * makes the change, in its transaction (style: "features that cause a message write its outbox row
 * through the messages feature's entry"). Each finds the renter's address and builds the figures.
 */

/**
 * The renter of a policy: the prospect's email as it is now (the partner may have corrected it),
 * else the email the renter bought with (their renter user). docs/decisions.md, "Renter messages: the outbox".
 */
export async function renterAddressOf(tx: Tx, policy: Pick<Policy, "id" | "prospectId">): Promise<string | undefined> {
  if (policy.prospectId !== null) {
    const [prospect] = await tx.select({ email: prospects.email }).from(prospects).where(eq(prospects.id, policy.prospectId));
    if (prospect?.email?.trim()) return prospect.email.trim();
  }
  const [user] = await tx
    .select({ email: renterUsers.email })
    .from(residents)
    .innerJoin(renterUsers, eq(renterUsers.id, residents.userId))
    .where(eq(residents.policyId, policy.id))
    .limit(1);
  return user?.email;
}

const refsOf = (policy: Policy) => ({ ownerId: policy.ownerId, policyId: policy.id, policyNumber: policy.policyNumber });

/** A message about a policy, without what the policy gives it: its renter's address and its references (each kind on its own). */
type PolicyMessage = OmitEach<RenterMessageInput, "to" | "ownerId" | "policyId" | "policyNumber">;
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Writes a message about a policy to its renter (`renterAddressOf`), with the policy's owner, id and
 * number; none when the policy has no renter's address. Answers the message's id, as `queueRenterMessage`.
 */
async function queuePolicyMessage(tx: Tx, policy: Policy, message: PolicyMessage): Promise<number | undefined> {
  const to = await renterAddressOf(tx, policy);
  if (!to) return undefined;
  return queueRenterMessage(tx, { ...message, to, ...refsOf(policy) } as RenterMessageInput);
}

/** The receipt of a successful charge (decisions §19: every successful charge), one per `dedupeKey`. */
async function queueReceipt(
  tx: Tx,
  policy: Policy,
  receipt: { dedupeKey: string; amountCents: number; paidAt: Date; description: string; reference: string | null },
): Promise<void> {
  await queuePolicyMessage(tx, policy, {
    kind: "payment_receipt",
    dedupeKey: receipt.dedupeKey,
    amountCents: receipt.amountCents,
    paidAt: receipt.paidAt.toISOString(),
    description: receipt.description,
    reference: receipt.reference ?? undefined,
    accountUrl: renterAccountUrl(),
  });
}

const productName = (policy: Policy) => (policy.productType === "service_deposit" ? "Service deposit" : PRODUCT_NAMES[policy.productType]);

/** Policy issued (decisions §19): number, coverage, dates, premium and, where the product has them, the documents' link. */
export async function noticePolicyIssued(tx: Tx, policy: Policy, documentsUrl?: string): Promise<void> {
  await queuePolicyMessage(tx, policy, {
    kind: "policy_issued",
    dedupeKey: `policy_issued:${policy.id}`,
    productName: productName(policy),
    coverageAmountCents: policy.coverageAmountCents,
    coverageStartDate: policy.coverageStartDate,
    coverageEndDate: policy.coverageEndDate,
    premiumCents: policy.premiumCents,
    cadence: policy.cadence,
    documentsUrl,
    accountUrl: renterAccountUrl(),
  });
}

/**
 * A policy's archive stored (`policy.documents_updated`): the first archive completes the policy's
 * issue message (it carries the documents' link); a later one is "documents updated".
 */
export async function noticeDocuments(tx: Tx, policy: Policy, documentsUrl: string, first: boolean): Promise<void> {
  if (first) return noticePolicyIssued(tx, policy, documentsUrl);
  await queuePolicyMessage(tx, policy, { kind: "policy_documents_updated", documentsUrl, accountUrl: renterAccountUrl() });
}

/**
 * A policy bought: the receipt of the purchase's charge now, and the issue message now for a product
 * without documents (the others' waits for their first archive, `noticeDocuments`).
 */
export async function noticePolicyPurchased(
  tx: Tx,
  policy: Policy,
  application: Pick<Application, "paymentAmountCents" | "paymentChargeId" | "paidAt">,
): Promise<void> {
  await noticePurchaseReceipt(tx, policy, application);
  if (policy.productType === "service_deposit") await noticePolicyIssued(tx, policy);
}

/** The receipt of the purchase's charge, written with the policy it paid for (decisions §19: every successful charge). */
async function noticePurchaseReceipt(
  tx: Tx,
  policy: Policy,
  application: Pick<Application, "paymentAmountCents" | "paymentChargeId" | "paidAt">,
): Promise<void> {
  await queueReceipt(tx, policy, {
    dedupeKey: `payment_receipt:purchase:${policy.id}`,
    amountCents: application.paymentAmountCents ?? policy.premiumCents,
    paidAt: application.paidAt ?? policy.issuedAt,
    description: policy.cadence === "monthly" ? "First month's premium" : "Premium, paid upfront",
    reference: application.paymentChargeId,
  });
}

/** The receipt of a monthly charge that succeeded (one per `billing_charges` row). */
export async function noticeChargeReceipt(
  tx: Tx,
  policy: Policy,
  charge: { id: number; amountCents: number; periodStart: string | null; processorChargeId: string | null; completedAt: Date | null },
): Promise<void> {
  await queueReceipt(tx, policy, {
    dedupeKey: `payment_receipt:charge:${charge.id}`,
    amountCents: charge.amountCents,
    paidAt: charge.completedAt ?? new Date(),
    description: charge.periodStart ? `Premium for ${monthOf(charge.periodStart)}` : "Premium",
    reference: charge.processorChargeId,
  });
}

/** A declined charge: the delinquency's amount now outstanding and the link to pay it (decisions §19). */
export async function noticePaymentFailed(tx: Tx, policy: Policy, delinquency: { amountCents: number }): Promise<void> {
  await queuePolicyMessage(tx, policy, { kind: "payment_failed", amountDueCents: delinquency.amountCents, payUrl: renterPayUrl(policy.id) });
}

/** A delinquency settled: what was paid. It is also the settlement charge's receipt (docs/decisions.md, "Renter messages: the outbox"). */
export async function noticeDelinquencyResolved(tx: Tx, policy: Policy, delinquency: { id: number; settledCents: number | null }): Promise<void> {
  await queuePolicyMessage(tx, policy, {
    kind: "delinquency_resolved",
    dedupeKey: `delinquency_resolved:${delinquency.id}`,
    amountPaidCents: delinquency.settledCents ?? 0,
    accountUrl: renterAccountUrl(),
  });
}

/** An application declined: no reason (spec: the renter "is notified directly"; decisions §19). */
export async function noticeApplicationDeclined(tx: Tx, application: Pick<Application, "id" | "prospectId">): Promise<void> {
  const [prospect] = await tx.select({ email: prospects.email, ownerId: prospects.ownerId }).from(prospects).where(eq(prospects.id, application.prospectId));
  if (!prospect?.email) return;
  await queueRenterMessage(tx, {
    kind: "application_declined",
    to: prospect.email,
    ownerId: prospect.ownerId,
    dedupeKey: `application_declined:${application.id}`,
  });
}

/**
 * Policies just canceled (any path: staff, the CLI, a revision that ends coverage early). The refund,
 * when one exists, is what `refundCentsOfCancellation` finds.
 */
export async function noticeCancellations(tx: Tx, changed: readonly Policy[]): Promise<void> {
  for (const policy of changed) {
    if (policy.status !== "canceled") continue;
    await queuePolicyMessage(tx, policy, {
      kind: "policy_canceled",
      dedupeKey: `policy_canceled:${policy.id}`,
      canceledOn: new Date().toISOString().slice(0, 10),
      refundCents: await refundCentsOfCancellation(tx, policy),
      accountUrl: renterAccountUrl(),
    });
  }
}

/**
 * The cents refunded for the policy's cancellation (decisions §18 Refunds), read in the cancellation's
 * transaction: `cancelPolicy` writes the refund row before the message (`onCanceled`), so the row is
 * there, still `pending`, when this reads it. A policy is canceled once, so it has at most one; none
 * (monthly, staff-made, nothing unearned, a revision that ended coverage) and the message names no refund.
 */
export async function refundCentsOfCancellation(tx: Tx, policy: Policy): Promise<number | undefined> {
  const [refund] = (await refundsOfPolicy(tx, policy.id)).filter((row) => row.status !== "failed" && row.status !== "canceled");
  return refund?.amountCents;
}

/** Live policies whose coverage ends within `days` after `today`: each gets one notice per end date. */
export async function noticeCoverageEnding(db: Db, today: string, days = 30): Promise<number> {
  const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const due = await db
    .select()
    .from(policies)
    .where(and(inArray(policies.status, ["active", "upcoming"]), gt(policies.coverageEndDate, today), lte(policies.coverageEndDate, horizon)));
  let queued = 0;
  for (const policy of due) {
    const id = await db.transaction((tx) =>
      queuePolicyMessage(tx, policy, {
        kind: "coverage_ending",
        dedupeKey: `coverage_ending:${policy.id}:${policy.coverageEndDate}`,
        coverageEndDate: policy.coverageEndDate,
        accountUrl: renterAccountUrl(),
      }),
    );
    if (id) queued++;
  }
  return queued;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const monthOf = (isoDate: string) => `${MONTHS[Number(isoDate.slice(5, 7)) - 1]} ${isoDate.slice(0, 4)}`;
