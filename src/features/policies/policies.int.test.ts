import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/documents/[file]/route";
import { getDb } from "../../server/db/client";
import { runDueJobs } from "../../test/jobs";
import type { Application } from "../enrollment/applications/applications.table";
import { recordUnderwriting, startApplication, submitApplication } from "../enrollment/applications/service";
import { propertyOwners } from "../owners/owners.table";
import type { Prospect } from "../prospects/prospects.table";
import { properties } from "../roster/roster.table";
import { recordCashDeposit } from "./cash-deposits";
import { pdfText, unzip } from "./documents/document-test-helpers";
import { issuePolicy } from "./issue";
import { POLICY_MESSAGES } from "./messages";
import { cashDeposits, policies } from "./policies.table";
import { defaultOutcome, enrollmentPartnersOfThisFile } from "./policy-test-helpers";

const partner = enrollmentPartnersOfThisFile();

/** A ready prospect's application, quoted by the default rules and submitted with `choice`. */
async function submitted(prospect: Prospect, choice: Parameters<typeof submitApplication>[2]): Promise<Application> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const { application } = await startApplication(tx, prospect);
    await recordUnderwriting(tx, application, defaultOutcome(prospect));
    return submitApplication(tx, application, choice);
  });
}

const PAID_AT = new Date("2026-11-24T15:00:00Z");

describe("policy issuance (decisions §10 step (4), §11; spec Policy payload)", () => {
  it("issues a policy → policy.created with the payload's fields, then the documents job → policy.documents_updated with a downloadable archive", async () => {
    const p = await partner();
    const prospect = await p.ready("pol-1", { pms_type: "pms_two", pms_property_id: "PP", pms_unit_id: "UU", pms_prospect_id: "RR" });
    const application = await submitted(prospect, { productType: "security_deposit_insurance", cadence: "upfront" });
    const db = await getDb();
    const { policy, created } = await db.transaction((tx) => issuePolicy(tx, application, { paidAt: PAID_AT }));
    expect(created).toBe(true);
    expect(policy.policyNumber).toMatch(/^PIS-2026-\d{6}$/);
    // The lease (samples: 2026-12-01 → 2027-11-30) starts after the payment day.
    expect(policy).toMatchObject({ status: "upcoming", coverageStartDate: "2026-12-01", coverageEndDate: "2027-11-30", coverageAmountCents: 150000 });
    const offer = application.quote?.status === "quoted" ? application.quote.offeredProducts[0] : undefined;
    expect(offer?.product_type === "security_deposit_insurance" && offer.upfront_premium_cents).toBe(policy.premiumCents);

    await runDueJobs(); // delivers policy.created, builds the documents (which emits documents_updated)
    await runDueJobs(); // delivers policy.documents_updated
    const bodies = p.delivered().filter((b) => b.event.startsWith("policy."));
    expect(bodies.map((b) => b.event).sort()).toEqual(["policy.created", "policy.documents_updated"]);
    const createdPayload = bodies.find((b) => b.event === "policy.created")?.data;
    const expected = {
      id: `policy_${policy.id}`,
      policy_number: policy.policyNumber,
      status: "upcoming",
      pms_type: "pms_two",
      pms_property_id: "PP",
      pms_unit_id: "UU",
      pms_resident_id: "RR",
      product_type: "security_deposit_insurance",
      coverage_amount_cents: 150000,
      coverage_start_date: "2026-12-01",
      coverage_end_date: "2027-11-30",
      admin_policy_url: `http://localhost:3999/console/policies/${policy.id}`,
      source_prospect_id: "pol-1",
      renewal_eligibility_status: "eligible",
      blocking_reasons: [],
    };
    expect(createdPayload).toEqual({ insurance_policy: expected });
    const documents = bodies.find((b) => b.event === "policy.documents_updated")?.data.insurance_policy;
    expect(documents).toEqual({ ...expected, policy_url: expect.stringMatching(/^http:\/\/localhost:3999\/documents\/[A-Za-z0-9_-]{32}\.zip$/) });

    // The archive behind policy_url is served without credentials and names the policy.
    const file = String(documents?.policy_url).split("/").pop() as string;
    const response = await GET(new Request(String(documents?.policy_url)), { params: Promise.resolve({ file }) });
    expect(response.status).toBe(200);
    const entries = unzip(new Uint8Array(await response.arrayBuffer()));
    const declarations = entries[`policy-${policy.policyNumber}/declarations.pdf`];
    const text = await pdfText(declarations);
    expect(text).toContain(policy.policyNumber);
    expect(text).toContain("Rita Renter");

    // The prospect shows the coverage; the building's address is now locked.
    expect((await p.get("pol-1")).body.prospect.latest_coverage).toEqual({
      type: "security_deposit_insurance",
      coverage_amount_cents: 150000,
      policy_number: policy.policyNumber,
      status: "upcoming",
    });
    const [building] = await db.select().from(properties).where(eq(properties.id, policy.propertyId));
    expect(building).toMatchObject({ addressLockedReason: "policy_issued", addressLockedAt: expect.any(Date) });
  });

  it("is idempotent: issuing the same application again answers the same policy and emits nothing more", async () => {
    const p = await partner();
    const prospect = await p.ready("pol-2", { lease_start_date: "2026-01-01" });
    const application = await submitted(prospect, { productType: "security_deposit_insurance", cadence: "monthly" });
    const db = await getDb();
    const first = await db.transaction((tx) => issuePolicy(tx, application, { paidAt: PAID_AT }));
    const again = await db.transaction((tx) => issuePolicy(tx, application, { paidAt: PAID_AT }));
    expect(again).toEqual({ policy: first.policy, created: false });
    // The lease already started: coverage from the payment day, active.
    expect(first.policy).toMatchObject({ status: "active", coverageStartDate: "2026-11-24", cadence: "monthly" });
    await runDueJobs();
    await runDueJobs();
    expect(p.delivered().filter((b) => b.event === "policy.created")).toHaveLength(1);
    expect(await db.select().from(policies).where(eq(policies.applicationId, application.id))).toHaveLength(1);
  });

  it("issues the guarantee with its coverage and product_version in the payload", async () => {
    const p = await partner({ guarantorCapable: true });
    const prospect = await p.ready("pol-g", { guarantor_coverage: true, deposit_amount_cents: undefined });
    const application = await submitted(prospect, { productType: "renter_guarantee_insurance", cadence: "upfront" });
    const db = await getDb();
    const { policy } = await db.transaction((tx) => issuePolicy(tx, application, { paidAt: PAID_AT }));
    expect(policy).toMatchObject({ productType: "renter_guarantee_insurance", productVersion: "2025.12.01" });
    await runDueJobs();
    const payload = p.delivered().find((b) => b.event === "policy.created")?.data.insurance_policy;
    expect(payload).toMatchObject({
      product_type: "renter_guarantee_insurance",
      product_version: "2025.12.01",
      coverage_amount_cents: policy.coverageAmountCents,
    });
  });

  it("reports blocked renewal when the owner's purchase flow is off", async () => {
    const p = await partner();
    const prospect = await p.ready("pol-b");
    const application = await submitted(prospect, { productType: "security_deposit_insurance", cadence: "upfront" });
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx.update(propertyOwners).set({ purchaseFlowEnabled: false }).where(eq(propertyOwners.id, p.owner.id));
      await issuePolicy(tx, application, { paidAt: PAID_AT });
    });
    await runDueJobs();
    const payload = p.delivered().find((b) => b.event === "policy.created")?.data.insurance_policy;
    expect(payload).toMatchObject({ renewal_eligibility_status: "blocked", blocking_reasons: ["Property owner must have the purchase flow enabled"] });
  });

  it("refuses an application that is not submitted, or a cash deposit, without a policy or an event", async () => {
    const p = await partner();
    const prospect = await p.ready("pol-x");
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    await expect(db.transaction((tx) => issuePolicy(tx, application, { paidAt: PAID_AT }))).rejects.toMatchObject({ message: POLICY_MESSAGES.notQuoted });
    await db.transaction((tx) => recordUnderwriting(tx, application, defaultOutcome(prospect)));
    await expect(db.transaction((tx) => issuePolicy(tx, application, { paidAt: PAID_AT }))).rejects.toMatchObject({ message: POLICY_MESSAGES.notSubmitted });
    await db.transaction((tx) => submitApplication(tx, application, { productType: "cash_deposit" }));
    await expect(db.transaction((tx) => issuePolicy(tx, application, { paidAt: PAID_AT }))).rejects.toMatchObject({
      message: POLICY_MESSAGES.notAPolicyProduct,
    });
    await runDueJobs();
    expect(p.delivered().filter((b) => b.event.startsWith("policy."))).toEqual([]);
  });
});

describe("cash deposits (decisions §10 step (4))", () => {
  it("records the offered amount, not a policy, and shows it as latest_coverage; once per application", async () => {
    const p = await partner();
    const prospect = await p.ready("cd-1");
    const application = await submitted(prospect, { productType: "cash_deposit" });
    const db = await getDb();
    const first = await db.transaction((tx) => recordCashDeposit(tx, application));
    const again = await db.transaction((tx) => recordCashDeposit(tx, application));
    expect(first.created).toBe(true);
    expect(again).toEqual({ cashDeposit: first.cashDeposit, created: false });
    expect(first.cashDeposit).toMatchObject({ amountCents: 150000, prospectId: prospect.id, unitId: prospect.unitId });
    expect(await db.select().from(cashDeposits).where(eq(cashDeposits.applicationId, application.id))).toHaveLength(1);
    expect(await db.select().from(policies).where(eq(policies.applicationId, application.id))).toEqual([]);
    expect((await p.get("cd-1")).body.prospect.latest_coverage).toEqual({ type: "cash_deposit", coverage_amount_cents: 150000 });
    await runDueJobs();
    expect(p.delivered().filter((b) => b.event.startsWith("policy."))).toEqual([]);
  });

  it("refuses an insurance application", async () => {
    const p = await partner();
    const prospect = await p.ready("cd-2");
    const application = await submitted(prospect, { productType: "security_deposit_insurance", cadence: "upfront" });
    const db = await getDb();
    await expect(db.transaction((tx) => recordCashDeposit(tx, application))).rejects.toMatchObject({
      kind: "conflict",
      message: POLICY_MESSAGES.notACashDeposit,
    });
  });
});
