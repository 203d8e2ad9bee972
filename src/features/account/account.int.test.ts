import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { appErrorOf } from "../../server/errors";
import { runDueJobs } from "../../test/jobs";
import { auditLog } from "../audit/audit-log.table";
import { billingCharges, delinquencies } from "../billing/billing.table";
import { billingPartnersOfThisFile, monthlyPolicy, monthOf } from "../billing/billing-test-helpers";
import { policySubject, runBilling } from "../billing/run";
import { renterMessages } from "../messages/renter-messages.table";
import { paymentCharges } from "../payments/payments.table";
import { SimulatedProcessor } from "../payments/simulated-processor";
import { paidPolicy, refundRowsOf } from "../policies/refunds/refund-test-helpers";
import { cancelPolicy } from "../policies/revisions/cancel";
import { accountSignInLinks } from "./account.table";
import { kindOf } from "./account-test-helpers";
import { ACCOUNT_MESSAGES } from "./messages";
import { accountPolicies, accountPolicy } from "./overview";
import { payNow, updateCard } from "./payments";
import { accountSessionOf, redeemSignInLink, requestSignInLink, revokeAccountSession } from "./sign-in";
import { accountStripePageNonce } from "./stripe-pages";

// decisions §19: the renter's account. Sign-in by an emailed link (15 minutes, once, the same answer
// for any email, throttled as §15), only the renter's own policies, Pay now, Update card.

const partner = billingPartnersOfThisFile();
const simulated = new SimulatedProcessor();
const card = (number = "4242 4242 4242 4242") => ({ number, expiry: "12/30", cvc: "123", postalCode: "78704" });
let seq = 0;
const freshEmail = () => `renter.account.${Date.now()}.${++seq}@example.com`;

/** The token of the newest sign-in message kept for `email`, read from the outbox as a renter's inbox would show it. */
async function linkTokenOf(email: string): Promise<string | undefined> {
  const rows = await (await getDb())
    .select({ data: renterMessages.data })
    .from(renterMessages)
    .where(and(eq(renterMessages.kind, "account_sign_in"), eq(renterMessages.toAddress, email)))
    .orderBy(sql`${renterMessages.id} desc`);
  const link = (rows[0]?.data as { link?: string } | undefined)?.link;
  return link?.split("/").at(-1);
}

const messagesTo = async (email: string) => (await getDb()).select().from(renterMessages).where(eq(renterMessages.toAddress, email));

describe("renter account sign-in (decisions §19)", () => {
  it("a known email gets a link that opens a 12-hour session once; a second use is refused; sign-out revokes", async () => {
    const p = await partner();
    const email = freshEmail();
    await monthlyPolicy(p, "acct-link", { email });
    const db = await getDb();
    expect(await requestSignInLink(db, { email: ` ${email.toUpperCase()} `, clientAddress: "10.0.0.1" })).toEqual({ outcome: "sent" });
    const [message] = (await messagesTo(email)).filter((row) => row.kind === "account_sign_in");
    expect(message.subject).toBe("Your sign-in link");
    const link = (message.data as { link: string }).link;
    expect(link).toMatch(/^http:\/\/[^/]+\/enroll\/account\/sign-in\/[A-Za-z0-9_-]{43}$/);
    const token = await linkTokenOf(email);

    const first = await redeemSignInLink(db, token);
    if (!first.ok) throw new Error(`link refused: ${first.reason}`);
    expect(first.session.email).toBe(email);
    const hours = (first.session.expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    expect(await accountSessionOf(db, first.session.token)).toMatchObject({ email });
    expect(await redeemSignInLink(db, token)).toEqual({ ok: false, reason: "used" });

    await revokeAccountSession(db, first.session.token);
    expect(await accountSessionOf(db, first.session.token)).toBeUndefined();
  });

  it("an expired link is refused and opens nothing", async () => {
    const p = await partner();
    const email = freshEmail();
    await monthlyPolicy(p, "acct-expired", { email });
    const db = await getDb();
    await requestSignInLink(db, { email, clientAddress: "10.0.0.2" });
    await db.update(accountSignInLinks).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(accountSignInLinks.email, email));
    expect(await redeemSignInLink(db, await linkTokenOf(email))).toEqual({ ok: false, reason: "expired" });
    expect(await redeemSignInLink(db, "x".repeat(43))).toEqual({ ok: false, reason: "invalid" });
    expect(await redeemSignInLink(db, "not a token")).toEqual({ ok: false, reason: "invalid" });
  });

  it("an unknown email gets the same answer and no message; a malformed one is a field error", async () => {
    const db = await getDb();
    const unknown = freshEmail();
    expect(await requestSignInLink(db, { email: unknown, clientAddress: "10.0.0.3" })).toEqual({ outcome: "sent" });
    expect(await messagesTo(unknown)).toEqual([]);
    expect(await db.select().from(accountSignInLinks).where(eq(accountSignInLinks.email, unknown))).toEqual([]);
    const malformed = await requestSignInLink(db, { email: "not-an-email", clientAddress: "10.0.0.3" }).catch((error) => appErrorOf(error));
    // The summary says what to check; the field says how to fix it (one sentence, not the same one twice).
    expect(malformed).toMatchObject({ kind: "invalid", message: ACCOUNT_MESSAGES.emailCheck, fields: { email: [ACCOUNT_MESSAGES.emailInvalid] } });
  });

  it("is throttled as the console's sign-in: 5 requests per email and 20 per client address in 15 minutes, each refusal audited", async () => {
    const db = await getDb();
    const email = freshEmail();
    for (let i = 0; i < 5; i++) expect(await requestSignInLink(db, { email, clientAddress: `10.1.0.${i}` })).toEqual({ outcome: "sent" });
    expect(await requestSignInLink(db, { email, clientAddress: "10.1.0.9" })).toEqual({ outcome: "throttled" });
    const refusals = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "account.sign_in_refused"), eq(auditLog.subjectId, email)));
    expect(refusals).toHaveLength(1);

    const address = "10.2.0.1";
    for (let i = 0; i < 20; i++) expect(await requestSignInLink(db, { email: freshEmail(), clientAddress: address })).toEqual({ outcome: "sent" });
    expect(await requestSignInLink(db, { email: freshEmail(), clientAddress: address })).toEqual({ outcome: "throttled" });
    // The console's own counters are apart: its sign-ins from that address are not refused by these.
    expect(await requestSignInLink(db, { email: freshEmail(), clientAddress: "10.2.0.2" })).toEqual({ outcome: "sent" });
  });
});

describe("the renter's policies (decisions §19)", () => {
  it("shows every policy of the email and nothing of another renter's, whatever id is asked for", async () => {
    const p = await partner();
    const mine = freshEmail();
    const theirs = freshEmail();
    const policy = await monthlyPolicy(p, "acct-mine", { email: mine });
    const other = await monthlyPolicy(p, "acct-theirs", { email: theirs });
    const db = await getDb();

    const list = await accountPolicies(db, mine.toUpperCase());
    expect(list.map((row) => row.policyNumber)).toEqual([policy.policyNumber]);
    expect(list[0]).toMatchObject({
      status: policy.status,
      coverageAmountCents: policy.coverageAmountCents,
      premiumCents: policy.premiumCents,
      cadence: "monthly",
      card: { last4: "4242" },
    });
    expect(list[0].payments).toEqual([expect.objectContaining({ description: "Purchase", amountCents: policy.premiumCents, status: "succeeded" })]);

    expect(await accountPolicy(db, mine, other.id)).toBeUndefined();
    expect(await kindOf(payNow(db, mine, other.id, card(), simulated))).toBe("not_found");
    expect(await kindOf(updateCard(db, mine, other.id, card(), simulated))).toBe("not_found");
    expect(await kindOf(payNow(db, mine, 2_147_483_648, card(), simulated))).toBe("not_found");
  });

  it("Pay now settles an open delinquency with the card typed: resolved, and delinquency.resolved reaches the partner", async () => {
    const p = await partner();
    const email = freshEmail();
    const policy = await monthlyPolicy(p, "acct-pay", { email });
    const db = await getDb();
    expect(await payNow(db, email, policy.id, card(), simulated)).toEqual({ outcome: "nothing_due" });
    await simulated.failNext(policySubject(policy.policyNumber));
    await runBilling(db, monthOf(policy, 1), simulated);
    await runDueJobs();
    expect(p.deliveredOf("delinquency.created")).toHaveLength(1);
    expect((await accountPolicy(db, email, policy.id))?.amountDueCents).toBe(policy.premiumCents);

    // A card mistake charges nothing and leaves the delinquency open.
    expect(await kindOf(payNow(db, email, policy.id, { ...card(), number: "4242 4242 4242 4241" }, simulated))).toBe("invalid");
    const paid = await payNow(db, email, policy.id, card("5555 5555 5555 4444"), simulated);
    expect(paid).toMatchObject({ outcome: "paid", amountCents: policy.premiumCents });

    const [resolved] = await db.select().from(delinquencies).where(eq(delinquencies.policyId, policy.id));
    expect(resolved).toMatchObject({ status: "resolved", amountCents: 0, settledCents: policy.premiumCents });
    await runDueJobs();
    const events = p.deliveredOf("delinquency.resolved");
    expect(events).toHaveLength(1);
    expect(events[0].data.delinquency).toMatchObject({ amount_cents: 0 });
    const view = await accountPolicy(db, email, policy.id);
    expect(view?.amountDueCents).toBeUndefined();
    expect(view?.payments[0]).toMatchObject({ description: "Overdue premium", status: "succeeded", last4: "4444" });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.settle"), eq(auditLog.subjectId, String(policy.id))));
    expect(audit.actorLabel).toBe(`renter:${email}`);
  });

  it("a canceled upfront policy shows its refund: amount, status and date, pending then refunded", async () => {
    const p = await partner();
    const email = freshEmail();
    const policy = await paidPolicy(p, "acct-refund", "upfront", { email });
    const db = await getDb();
    expect((await accountPolicy(db, email, policy.id))?.refunds).toEqual([]);
    await db.transaction((tx) => cancelPolicy(tx, { cli: "tester" }, policy.id));
    const [row] = await refundRowsOf(policy.id);
    const today = new Date().toISOString().slice(0, 10);

    const pending = await accountPolicy(db, email, policy.id);
    expect(pending?.status).toBe("canceled");
    expect(pending?.refunds).toEqual([{ id: row.id, at: row.createdAt, amountCents: policy.premiumCents, status: "pending" }]);
    expect(pending?.refunds[0].at.toISOString().slice(0, 10)).toBe(today);
    await runDueJobs();
    const [listed] = await accountPolicies(db, email);
    expect(listed.refunds).toEqual([{ id: row.id, at: row.createdAt, amountCents: policy.premiumCents, status: "refunded" }]);
  });

  it("with the simulated processor the card pages load no Stripe.js: no Stripe sources in their policy", () => {
    expect(accountStripePageNonce("/enroll/account/policies/12/pay")).toBeUndefined();
    expect(accountStripePageNonce("/enroll/account/policies/12/card")).toBeUndefined();
  });

  it("Update card: the next monthly charge uses the new card; an upfront policy has none to update", async () => {
    const p = await partner();
    const email = freshEmail();
    const policy = await monthlyPolicy(p, "acct-card", { email });
    const db = await getDb();
    const updated = await updateCard(db, email, policy.id, card("5555 5555 5555 4444"), simulated);
    expect(updated).toMatchObject({ brand: "mastercard", last4: "4444" });
    expect((await accountPolicy(db, email, policy.id))?.card).toMatchObject({ last4: "4444" });

    await runBilling(db, monthOf(policy, 1), simulated);
    const [month] = await db
      .select({ status: billingCharges.status, last4: paymentCharges.last4, methodId: paymentCharges.methodId })
      .from(billingCharges)
      .innerJoin(paymentCharges, eq(paymentCharges.id, billingCharges.processorChargeId))
      .where(and(eq(billingCharges.policyId, policy.id), eq(billingCharges.kind, "period")));
    expect(month).toMatchObject({ status: "succeeded", last4: "4444" });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "billing.card_updated"), eq(auditLog.subjectId, String(policy.id))));
    expect(audit.after).toMatchObject({ method_id: month.methodId, last4: "4444" });

    // A card the processor refuses is a field error; nothing changes.
    expect(await kindOf(updateCard(db, email, policy.id, card("4000 0000 0000 0002"), simulated))).toBe("invalid");
    expect((await accountPolicy(db, email, policy.id))?.card).toMatchObject({ last4: "4444" });
  });
});
