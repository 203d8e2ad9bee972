import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { runDueJobs } from "../../test/jobs";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../../test/smtp-server";
import { billingPartnersOfThisFile, monthlyPolicy, monthOf } from "../billing/billing-test-helpers";
import { policySubject, runBilling } from "../billing/run";
import { settlePolicy } from "../billing/settle";
import { DETAILS, okView, renter } from "../enrollment/flow/flow-test-helpers";
import { submitDetails } from "../enrollment/flow/service";
import { SimulatedProcessor } from "../payments/simulated-processor";
import { regeneratePolicyDocuments } from "../policies/build-documents";
import { formatDate, formatUsd } from "../policies/documents/format";
import { findArchiveByKey } from "../policies/documents/storage";
import { paidPolicy, refundRowsOf } from "../policies/refunds/refund-test-helpers";
import { cancelPolicy } from "../policies/revisions/cancel";
import { prospects } from "../prospects/prospects.table";
import { noticeCoverageEnding } from "./notices";
import { renterMessages } from "./renter-messages.table";

const partner = billingPartnersOfThisFile();
const simulated = new SimulatedProcessor();
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  resetConfig();
  await smtp.close();
});
beforeEach(() => {
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Renters <no-reply@pis.test>";
  resetConfig();
});

const ACCOUNT = "http://localhost:3999/enroll/account";
const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address));
const bySubject = (mails: ReceivedMail[], pattern: RegExp) => mails.filter((mail) => pattern.test(mail.parsed.subject ?? ""));
const linksOf = (mail: ReceivedMail) => [...String(mail.parsed.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1].replaceAll("&amp;", "&"));

/** The archive a message links to exists and is served by its unguessable key (decisions §11 Documents). */
async function expectDocumentsLink(url: string) {
  const match = url.match(/^http:\/\/localhost:3999\/documents\/([A-Za-z0-9_-]{32})\.zip$/);
  expect(match, url).not.toBeNull();
  expect(await findArchiveByKey(await getDb(), match?.[1] ?? "")).toBeDefined();
}

describe("every renter message of decisions §19, from the change that causes it, to a real SMTP server", () => {
  it("a monthly policy's life: receipt and issue, monthly receipt, payment failed, resolved, documents updated, coverage ending, canceled", async () => {
    const p = await partner();
    const email = "rita.life@example.com";
    const policy = await monthlyPolicy(p, "msg-life", { email });
    await runDueJobs(); // documents built → the issue message; the messages sent
    await runDueJobs();
    const premium = formatUsd(policy.premiumCents);

    const [receipt] = bySubject(mailsTo(email), /^Receipt:/);
    expect(receipt.parsed.subject).toBe(`Receipt: ${premium} paid for policy ${policy.policyNumber}`);
    expect(receipt.parsed.text).toContain("First month's premium");
    expect(receipt.parsed.text).toContain(p.owner.name);
    const [issued] = bySubject(mailsTo(email), /is issued$/);
    expect(issued.parsed.subject).toBe(`Your policy ${policy.policyNumber} is issued`);
    for (const figure of [
      policy.policyNumber,
      formatUsd(policy.coverageAmountCents),
      formatDate(policy.coverageStartDate),
      formatDate(policy.coverageEndDate),
      `${premium} per month`,
    ])
      expect(issued.parsed.text).toContain(figure);
    const documents = linksOf(issued).find((link) => link.includes("/documents/")) ?? "";
    await expectDocumentsLink(documents);
    expect(linksOf(issued)).toContain(ACCOUNT);
    expect(String(issued.parsed.html)).not.toMatch(/<img/i);
    expect(issued.parsed.attachments).toEqual([]);
    expect(mailsTo(email)).toHaveLength(2);

    const db = await getDb();
    await runBilling(db, monthOf(policy, 1), simulated);
    await runDueJobs();
    const monthly = bySubject(mailsTo(email), /^Receipt:/);
    expect(monthly).toHaveLength(2);
    expect(monthly[1].parsed.text).toContain("Premium for ");

    await simulated.failNext(policySubject(policy.policyNumber));
    await runBilling(db, monthOf(policy, 2), simulated);
    await runDueJobs();
    const [failed] = bySubject(mailsTo(email), /^Payment failed/);
    expect(failed.parsed.subject).toBe(`Payment failed for policy ${policy.policyNumber}: ${premium} due`);
    expect(linksOf(failed)).toContain(`${ACCOUNT}/policies/${policy.id}/pay`);

    await settlePolicy(db, { cli: "tester" }, policy.id, simulated);
    await runDueJobs();
    const [resolved] = bySubject(mailsTo(email), /^Payment received/);
    expect(resolved.parsed.text).toContain(`We received ${premium} for policy ${policy.policyNumber}`);

    await regeneratePolicyDocuments(db, policy.id);
    await runDueJobs();
    const [updated] = bySubject(mailsTo(email), /^Updated documents/);
    const newDocuments = linksOf(updated).find((link) => link.includes("/documents/")) ?? "";
    await expectDocumentsLink(newDocuments);
    expect(newDocuments).not.toBe(documents);

    const dayBefore = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    expect(await noticeCoverageEnding(db, dayBefore(policy.coverageEndDate, 40))).toBe(0);
    expect(await noticeCoverageEnding(db, dayBefore(policy.coverageEndDate, 30))).toBe(1);
    expect(await noticeCoverageEnding(db, dayBefore(policy.coverageEndDate, 29))).toBe(0);
    await runDueJobs();
    const [ending] = bySubject(mailsTo(email), /^Your coverage ends/);
    expect(ending.parsed.subject).toBe(`Your coverage ends on ${formatDate(policy.coverageEndDate)} (policy ${policy.policyNumber})`);

    await db.transaction((tx) => cancelPolicy(tx, { cli: "tester" }, policy.id, { reason: "moved out" }));
    await runDueJobs();
    const [canceled] = bySubject(mailsTo(email), /is canceled$/);
    expect(canceled.parsed.text).toContain(`Policy ${policy.policyNumber} is canceled`);
    expect(canceled.parsed.text).not.toContain("moved out");
    expect(canceled.parsed.text).not.toContain("Refund");

    // Each cause once: eight messages, all sent, none twice.
    expect(mailsTo(email)).toHaveLength(8);
    const rows = await db.select().from(renterMessages).where(eq(renterMessages.policyId, policy.id));
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => "sent"));
    expect(new Set(rows.map((row) => row.messageId)).size).toBe(rows.length);
  });

  it("an upfront policy canceled: the message names the refund, the cents of its refund row", async () => {
    const p = await partner();
    const email = "rita.refund@example.com";
    const policy = await paidPolicy(p, "msg-refund", "upfront", { email });
    await runDueJobs();
    const db = await getDb();
    await db.transaction((tx) => cancelPolicy(tx, { cli: "tester" }, policy.id));
    const [refund] = await refundRowsOf(policy.id);
    // Canceled before its start: everything paid comes back (decisions §18 Refunds).
    expect(refund).toMatchObject({ status: "pending", amountCents: policy.premiumCents });
    const [row] = await db
      .select()
      .from(renterMessages)
      .where(and(eq(renterMessages.policyId, policy.id), eq(renterMessages.kind, "policy_canceled")));
    expect(row.data).toMatchObject({ refundCents: refund.amountCents });
    await runDueJobs();

    const [canceled] = bySubject(mailsTo(email), /is canceled$/);
    expect(canceled.parsed.subject).toBe(`Policy ${policy.policyNumber} is canceled`);
    expect(canceled.parsed.text).toContain(`Refund: ${formatUsd(refund.amountCents)}, to the card you paid with`);
    expect(String(canceled.parsed.html)).toContain(formatUsd(refund.amountCents));
    expect((await refundRowsOf(policy.id))[0].status).toBe("succeeded");
  });

  it("a declined application: one message, no reason", async () => {
    const p = await partner();
    const email = "rita+decline@example.com";
    const { link } = await renter(p, "msg-decline", { email });
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    await runDueJobs();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].parsed.subject).toBe(`Your insurance application for ${p.owner.name}`);
    expect(mails[0].parsed.text).toContain("We cannot offer you a policy");
    expect(mails[0].parsed.text?.toLowerCase()).not.toMatch(/underwriting|reason|income|score/);
  });

  it("a message goes to the address the renter had when it was written, not one changed before sending", async () => {
    const p = await partner();
    const before = "rita.before@example.com";
    const after = "rita.after@example.com";
    const policy = await monthlyPolicy(p, "msg-address", { email: before });
    // The receipt is written; the address changes before the send job runs.
    await (await getDb())
      .update(prospects)
      .set({ email: after })
      .where(eq(prospects.id, policy.prospectId ?? 0));
    await runDueJobs();
    await runDueJobs();
    expect(bySubject(mailsTo(before), /^Receipt:/)).toHaveLength(1);
    // Written after the change (the issue message, with the first archive): the new address.
    expect(bySubject(mailsTo(after), /is issued$/)).toHaveLength(1);
    expect(bySubject(mailsTo(after), /^Receipt:/)).toHaveLength(0);
  });
});
