import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getConfig, resetConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { runDueJobs } from "../../../test/jobs";
import { PAYMENT_MESSAGES } from "../../payments/messages";
import { paymentCharges } from "../../payments/payments.table";
import { processorFor } from "../../payments/processor-for";
import { cashDeposits, policies } from "../../policies/policies.table";
import { enrollmentPartnersOfThisFile, prospectRow } from "../../policies/policy-test-helpers";
import { applications } from "../applications/applications.table";
import type { ChooseView, PayView, ResultView } from "./contract";
import { applicationsOf, card, DETAILS, okView, renter, viewOf } from "./flow-test-helpers";
import { FLOW_MESSAGES } from "./messages";
import { changeChoice, chooseProduct, payEnrollment, submitDetails } from "./service";

const partner = enrollmentPartnersOfThisFile();

const chargesOf = async (applicationId: number) =>
  (await getDb())
    .select()
    .from(paymentCharges)
    .where(eq(paymentCharges.subject, `application:pa_${applicationId}`));

describe("enrollment flow: purchases (decisions §10 steps (1)-(4))", () => {
  it("deposit insurance paid upfront: every step, resume, events, policy and documents", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-upfront");

    const details = await viewOf(link);
    expect(details).toMatchObject({
      step: "details",
      flow: "embedded",
      staging: true,
      firstName: "Rita",
      guarantee: false,
      values: { firstName: "Rita", lastName: "Renter", email: "Renter@Example.com", phone: "5125550123", birthdate: "1990-04-02" },
      lease: {
        ownerName: p.owner.name,
        address: "10 Main St, Austin, TX 78701",
        unitLabel: "101",
        leaseStartDate: "2026-12-01",
        leaseEndDate: "2027-11-30",
        monthlyRentCents: 150000,
      },
    });
    expect(details.step === "details" && details.disclosures.length).toBeGreaterThan(0);
    // Loading starts nothing.
    expect(await applicationsOf(prospect)).toEqual([]);

    expect(okView(await submitDetails(link, DETAILS)).step).toBe("quote");
    expect((await viewOf(link)).step).toBe("quote");
    await runDueJobs();

    const choose = (await viewOf(link)) as ChooseView;
    expect(choose.step).toBe("choose");
    expect(choose.selected).toBeUndefined();
    expect(choose.offers.map((o) => o.productType)).toEqual(["security_deposit_insurance", "cash_deposit"]);
    const sdi = choose.offers[0];
    if (sdi.productType !== "security_deposit_insurance") throw new Error("unexpected offer");
    expect(sdi).toMatchObject({ coverageAmountCents: 150000 });
    expect(sdi.percentSavings).toBeGreaterThan(0);

    const pay = okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" })) as PayView;
    expect(pay).toMatchObject({
      step: "pay",
      productType: "security_deposit_insurance",
      cadence: "upfront",
      amountDueCents: sdi.upfrontPremiumCents,
      summary: "Deposit insurance, paid upfront",
      paymentAvailable: true,
    });
    expect((await viewOf(link)).step).toBe("pay");

    const done = okView(await payEnrollment(link, card())) as ResultView;
    expect(done).toMatchObject({
      step: "result",
      state: "completed",
      productType: "security_deposit_insurance",
      coverageAmountCents: 150000,
      redirectTo: null,
    });
    expect(done.policyNumber).toMatch(/^PIS-\d{4}-\d{6}$/);
    expect(done.documentsUrl).toBeUndefined();

    const [application] = await applicationsOf(prospect);
    expect(application).toMatchObject({ step: "result", paymentAmountCents: sdi.upfrontPremiumCents, paymentLast4: "4242" });
    expect(application.paymentChargeId).toMatch(/^ch_/);
    expect(JSON.stringify(application)).not.toContain("4242424242424242");
    const charges = await chargesOf(application.id);
    expect(charges).toMatchObject([{ status: "succeeded", amountCents: sdi.upfrontPremiumCents, id: application.paymentChargeId }]);
    expect(charges[0].idempotencyKey).toMatch(new RegExp(`^application:pa_${application.id}:`));

    await runDueJobs();
    const reopened = (await viewOf(link)) as ResultView;
    expect(reopened).toMatchObject({ step: "result", state: "completed", policyNumber: done.policyNumber });
    expect(reopened.documentsUrl).toMatch(/\/documents\/[A-Za-z0-9_-]{32}\.zip$/);

    const events = p.delivered().map((d) => d.event);
    expect(events.sort()).toEqual(
      ["policy_application.created", "policy_application.quoted", "policy_application.submitted", "policy.created", "policy.documents_updated"].sort(),
    );
    expect(JSON.stringify(p.delivered().find((d) => d.event === "policy.created")?.data)).toContain(String(done.policyNumber));
    expect((await prospectRow(p.owner.id, "buy-upfront")).latestCoverage).toMatchObject({
      type: "security_deposit_insurance",
      policy_number: done.policyNumber,
    });
  });

  it("deposit insurance paid monthly from a product link: preselected, first monthly premium charged", async () => {
    const p = await partner();
    const { link } = await renter(p, "buy-monthly", {}, { selectedProduct: "security_deposit_insurance", cadence: "monthly" });
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const choose = (await viewOf(link)) as ChooseView;
    expect(choose.selected).toEqual({ productType: "security_deposit_insurance", cadence: "monthly" });
    const offer = choose.offers.find((o) => o.productType === "security_deposit_insurance");
    if (offer?.productType !== "security_deposit_insurance") throw new Error("no insurance offer");
    const pay = okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "monthly" })) as PayView;
    expect(pay).toMatchObject({ amountDueCents: offer.monthlyPremiumCents, cadence: "monthly", summary: "Deposit insurance, paid monthly" });
    const done = okView(await payEnrollment(link, card("5555 5555 5555 4444"))) as ResultView;
    expect(done.state).toBe("completed");
    const [policy] = await (await getDb())
      .select()
      .from(policies)
      .where(eq(policies.policyNumber, done.policyNumber ?? ""));
    expect(policy).toMatchObject({ cadence: "monthly", premiumCents: offer.monthlyPremiumCents });
  });

  it("cash deposit: no cadence, the deposit amount charged, a cash deposit recorded instead of a policy", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-cash");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const choose = (await viewOf(link)) as ChooseView;
    const offer = choose.offers.find((o) => o.productType === "cash_deposit");
    if (offer?.productType !== "cash_deposit") throw new Error("no cash deposit offer");
    const pay = okView(await chooseProduct(link, { productType: "cash_deposit", cadence: "upfront" })) as PayView;
    expect(pay).toMatchObject({ productType: "cash_deposit", cadence: null, amountDueCents: offer.cashDepositAmountCents, summary: "Cash deposit" });
    const done = okView(await payEnrollment(link, card())) as ResultView;
    expect(done).toMatchObject({ state: "completed", productType: "cash_deposit", coverageAmountCents: offer.cashDepositAmountCents });
    expect(done.policyNumber).toBeUndefined();
    const db = await getDb();
    expect(await db.select().from(cashDeposits).where(eq(cashDeposits.prospectId, prospect.id))).toHaveLength(1);
    expect(await db.select().from(policies).where(eq(policies.prospectId, prospect.id))).toEqual([]);
    await runDueJobs();
    expect(p.delivered().map((d) => d.event)).not.toContain("policy.created");
    expect((await viewOf(link)).step).toBe("result");
  });

  it("the guarantee prospect is offered the guarantee only, with a cadence", async () => {
    const p = await partner({ guarantorCapable: true });
    const { link } = await renter(p, "buy-guarantee", { guarantor_coverage: true, deposit_amount_cents: undefined });
    expect(await viewOf(link)).toMatchObject({ step: "details", guarantee: true });
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const choose = (await viewOf(link)) as ChooseView;
    expect(choose.offers).toHaveLength(1);
    const offer = choose.offers[0];
    if (offer.productType !== "renter_guarantee_insurance") throw new Error("not the guarantee");
    expect(offer.productVersion).toBe("2025.12.01");
    expect(choose.selected).toEqual({ productType: "renter_guarantee_insurance" });

    const noCadence = await chooseProduct(link, { productType: "renter_guarantee_insurance" });
    expect(noCadence).toMatchObject({ ok: false, fields: { cadence: [expect.any(String)] }, view: { step: "choose" } });
    const deposit = await chooseProduct(link, { productType: "cash_deposit" });
    expect(deposit).toMatchObject({ ok: false, fields: { productType: [expect.any(String)] } });

    const pay = okView(await chooseProduct(link, { productType: "renter_guarantee_insurance", cadence: "upfront" })) as PayView;
    expect(pay).toMatchObject({ amountDueCents: offer.upfrontPremiumCents, summary: "Lease guarantee, paid upfront" });
    const done = okView(await payEnrollment(link, card())) as ResultView;
    expect(done).toMatchObject({ state: "completed", productType: "renter_guarantee_insurance", coverageAmountCents: offer.coverageAmountCents });
  });

  it("a declined card changes nothing and the renter pays with another: one policy, one successful charge", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-declined");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const pay = okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" })) as PayView;
    const [application] = await applicationsOf(prospect);

    const typo = await payEnrollment(link, { ...card("4242 4242 4242 4241"), expiry: "13/30", nameOnCard: " " });
    expect(typo).toMatchObject({ ok: false, view: { step: "pay" } });
    expect(Object.keys(typo.ok ? {} : typo.fields).sort()).toEqual(["expiry", "nameOnCard", "number"]);
    expect(await chargesOf(application.id)).toEqual([]);

    const declined = await payEnrollment(link, card("4000 0000 0000 0002"));
    expect(declined).toMatchObject({ ok: false, view: { step: "pay", amountDueCents: pay.amountDueCents } });
    expect(declined.ok ? "" : declined.message).toContain("declined");
    expect((declined.view as PayView).attempt).not.toBe(pay.attempt);
    const [unchanged] = await applicationsOf(prospect);
    expect(unchanged).toMatchObject({ step: "pay", paidAt: null, paymentChargeId: null });
    expect((await viewOf(link)).step).toBe("pay");

    const paid = card();
    expect(okView(await payEnrollment(link, paid))).toMatchObject({ step: "result", state: "completed" });
    // The same form again (a double click) and another form: the enrollment is paid, nothing charged again.
    expect(okView(await payEnrollment(link, paid))).toMatchObject({ state: "completed" });
    expect(okView(await payEnrollment(link, card()))).toMatchObject({ state: "completed" });
    const charges = await chargesOf(application.id);
    expect(charges.map((c) => c.status).sort()).toEqual(["declined", "succeeded"]);
    expect(await (await getDb()).select().from(policies).where(eq(policies.prospectId, prospect.id))).toHaveLength(1);
  });

  it("a charge whose recording failed is replayed by the same form, never charged twice, and issues", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-retry");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const pay = okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" })) as PayView;
    const [application] = await applicationsOf(prospect);
    const form = card();
    // As if the first submission charged and its transaction then failed: the processor has the charge, we have nothing.
    const subject = `application:pa_${application.id}`;
    const first = await processorFor(getConfig()).charge({
      idempotencyKey: `${subject}:${form.attempt}`,
      amountCents: pay.amountDueCents,
      currency: "usd",
      description: "first try",
      metadata: { subject },
      card: form,
    });
    expect(first.status).toBe("succeeded");
    const done = okView(await payEnrollment(link, form)) as ResultView;
    expect(done.state).toBe("completed");
    const charges = await chargesOf(application.id);
    expect(charges).toHaveLength(1);
    const [paidApplication] = await applicationsOf(prospect);
    expect(paidApplication.paymentChargeId).toBe(first.chargeId);
  });

  it("two tabs paying at once with different cards are charged once, and both end completed", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-two-tabs");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" }));
    const [application] = await applicationsOf(prospect);
    // Two pay forms (two tabs, each its own attempt), submitted together with two good cards.
    const answers = await Promise.all([payEnrollment(link, card("4242 4242 4242 4242")), payEnrollment(link, card("5555 5555 5555 4444"))]);
    for (const answer of answers) expect(okView(answer)).toMatchObject({ step: "result", state: "completed" });
    const charges = await chargesOf(application.id);
    expect(charges.map((c) => c.status)).toEqual(["succeeded"]);
    const [paidApplication] = await applicationsOf(prospect);
    expect(paidApplication).toMatchObject({ paymentChargeId: charges[0].id, paymentKey: null, paymentKeyAmountCents: null });
    expect(await (await getDb()).select().from(policies).where(eq(policies.prospectId, prospect.id))).toHaveLength(1);
  });

  it("a payment whose outcome was never recorded is replayed by any later form, from any tab: charged once, issued", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-crashed");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const pay = okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" })) as PayView;
    const [application] = await applicationsOf(prospect);
    // As a process that died after the processor charged leaves it: the claim taken, the charge made, nothing recorded.
    const subject = `application:pa_${application.id}`;
    const key = `${subject}:crashed0attempt`;
    await (await getDb()).update(applications).set({ paymentKey: key, paymentKeyAmountCents: pay.amountDueCents }).where(eq(applications.id, application.id));
    const first = await processorFor(getConfig()).charge({
      idempotencyKey: key,
      amountCents: pay.amountDueCents,
      currency: "usd",
      description: "the crashed try",
      metadata: { subject },
      card: card(),
    });
    expect(first.status).toBe("succeeded");
    // Meanwhile the option cannot change: what was charged is what will be issued.
    await expect(changeChoice(link)).rejects.toMatchObject({ kind: "conflict", message: FLOW_MESSAGES.paymentInProgress });
    await expect(chooseProduct(link, { productType: "cash_deposit" })).rejects.toMatchObject({ kind: "conflict", message: FLOW_MESSAGES.paymentInProgress });
    // The renter reloads (a new form, a new attempt) and pays with another card.
    const done = okView(await payEnrollment(link, card("5555 5555 5555 4444"))) as ResultView;
    expect(done.state).toBe("completed");
    const charges = await chargesOf(application.id);
    expect(charges).toHaveLength(1);
    const [paidApplication] = await applicationsOf(prospect);
    expect(paidApplication).toMatchObject({ paymentChargeId: first.chargeId, paymentKey: null, productType: "security_deposit_insurance" });
  });

  it("a declined card frees the payment: the option may change and the next card is a new attempt", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-declined-free");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" }));
    const [application] = await applicationsOf(prospect);
    const declined = await payEnrollment(link, card("4000 0000 0000 0002"));
    expect(declined.ok).toBe(false);
    expect((await applicationsOf(prospect))[0]).toMatchObject({ paymentKey: null, paidAt: null });
    expect(okView(await changeChoice(link)).step).toBe("choose");
    okView(await chooseProduct(link, { productType: "cash_deposit" }));
    expect(okView(await payEnrollment(link, card()))).toMatchObject({ state: "completed" });
    expect((await chargesOf(application.id)).map((c) => c.status)).toEqual(["declined", "succeeded"]);
    expect(await (await getDb()).select().from(cashDeposits).where(eq(cashDeposits.prospectId, prospect.id))).toHaveLength(1);
  });

  it("change option goes back to choose before payment, and is refused once paid", async () => {
    const p = await partner();
    const { link } = await renter(p, "buy-change");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "monthly" }));
    const back = okView(await changeChoice(link)) as ChooseView;
    expect(back).toMatchObject({ step: "choose", selected: { productType: "security_deposit_insurance", cadence: "monthly" } });
    expect((await viewOf(link)).step).toBe("choose");
    // The same choice again moves on to pay; another choice is the new one.
    expect(okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "monthly" })).step).toBe("pay");
    okView(await changeChoice(link));
    expect(okView(await chooseProduct(link, { productType: "cash_deposit" }))).toMatchObject({ step: "pay", productType: "cash_deposit" });
    okView(await payEnrollment(link, card()));
    await expect(changeChoice(link)).rejects.toMatchObject({ kind: "conflict" });
    await expect(chooseProduct(link, { productType: "cash_deposit" })).rejects.toMatchObject({ kind: "conflict" });
    await runDueJobs();
    expect(p.delivered().filter((d) => d.event === "policy_application.submitted")).toHaveLength(2);
  });

  it("without a payment processor (production until configured): no card form, payment refused, nothing recorded", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "buy-none");
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" }));
    process.env.PAYMENT_PROCESSOR = "none";
    resetConfig();
    try {
      expect(await viewOf(link)).toMatchObject({ step: "pay", paymentAvailable: false });
      const refused = await payEnrollment(link, card());
      expect(refused).toMatchObject({ ok: false, message: PAYMENT_MESSAGES.notConfigured, view: { step: "pay" } });
    } finally {
      delete process.env.PAYMENT_PROCESSOR;
      resetConfig();
    }
    const [application] = await applicationsOf(prospect);
    expect(application).toMatchObject({ paidAt: null, step: "pay" });
    expect(await chargesOf(application.id)).toEqual([]);
    expect(
      await (await getDb())
        .select()
        .from(policies)
        .where(and(eq(policies.prospectId, prospect.id))),
    ).toEqual([]);
  });
});
