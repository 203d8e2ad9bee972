import { and, eq, isNull } from "drizzle-orm";
import { getConfig } from "../../../server/config";
import { type Db, getDb } from "../../../server/db/client";
import { AppError, errors, type FieldErrors } from "../../../server/errors";
import { logger } from "../../../server/log";
import { enterOwnerWrite } from "../../owners/merge/gate";
import type { Owner } from "../../owners/service";
import { checkCard } from "../../payments/card";
import { PAYMENT_MESSAGES } from "../../payments/messages";
import { paymentPortFor } from "../../payments/port-for";
import { processorFor } from "../../payments/processor-for";
import { recordCashDeposit } from "../../policies/cash-deposits";
import { issuePolicy } from "../../policies/issue";
import { prospects } from "../../prospects/prospects.table";
import { applications, CADENCES, type Cadence } from "../applications/applications.table";
import { lockApplication, startApplication, submitApplication } from "../applications/service";
import { requestUnderwriting } from "../underwriting/application__underwrite";
import type { ActionResult, ChoiceInput, DetailsInput, DetailsView, FlowService, FlowView, LinkParams, LoadResult, PaymentInput, PayView } from "./contract";
import { checkDetails } from "./details";
import { failsIdentityCheck } from "./identity";
import { BLOCKED_REASONS, FLOW_MESSAGES as M } from "./messages";
import { type EnrollmentRecord, loadRecord, requireRecord } from "./state";
import { payWithToken, settleReturn, withStripeIntent } from "./stripe-pay";
import { type Choice, chooseView, currentView, flowEnv, offersOf, openApplication } from "./views";

/**
 * The renter enrollment flow (decisions §10), behind the contract of `./contract.ts`. State lives in
 * the application row: every function re-reads it from the signed link, so any tab or device lands
 * on the same step. Renter mistakes answer `ok: false` with field errors and write nothing.
 */

const ATTEMPT = /^[A-Za-z0-9_-]{1,64}$/;

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

async function viewOf(params: LinkParams): Promise<FlowView> {
  const db = await getDb();
  return currentView(db, await requireRecord(db, params));
}

export async function loadEnrollment(params: LinkParams): Promise<LoadResult> {
  const db = await getDb();
  let record = await loadRecord(db, params);
  if (!record) return { kind: "invalid" };
  // decisions §18: back from Stripe (3-D Secure): what Stripe says of the intent, never the query's status.
  if (params.payment_intent && paymentPortFor(getConfig())) {
    await settleReturn(db, record, params.payment_intent);
    record = await requireRecord(db, params);
  }
  const view = await currentView(db, record);
  // Entering the pay step through Stripe creates (or reuses) the application's PaymentIntent.
  if (view.step === "pay" && paymentPortFor(getConfig())) return { kind: "view", view: await withStripeIntent(db, record, view, params) };
  return { kind: "view", view };
}

/**
 * Step 1 (decisions §10): the details and the disclosures → one transaction: what the renter entered
 * on the application, `startApplication` (`policy_application.created` once) and the underwriting
 * job; or, in staging, `+blocked` ends here at the identity check. A second submit answers the step
 * the first one reached.
 */
export async function submitDetails(params: LinkParams, input: DetailsInput): Promise<ActionResult> {
  const db = await getDb();
  const record = await requireRecord(db, params);
  const env = flowEnv();
  const view = await currentView(db, record, env);
  if (view.step !== "details") {
    if (openApplication(record)?.applicant) return { ok: true, view };
    throw errors.conflict(M.notCurrentStep);
  }
  const checked = checkDetails(input, todayUtc());
  if (checked.errors) {
    const typed: DetailsView = {
      ...view,
      values: { ...view.values, firstName: input.firstName ?? "", lastName: input.lastName ?? "", phone: input.phone ?? "", birthdate: input.birthdate ?? "" },
    };
    return { ok: false, message: M.detailsInvalid, fields: checked.errors, view: typed };
  }
  // decisions §10 staging magic values: decided here, at the identity check; production ignores it.
  const blocked = failsIdentityCheck(record.prospect.email, env.appEnv);
  const { selectedProduct, cadence } = record.link;
  await db.transaction(async (tx) => {
    await enterOwnerWrite(tx, { ...record.owner });
    // Read again behind the gate: a merge that ran meanwhile moved the prospect to the survivor.
    const [prospect] = await tx.select().from(prospects).where(eq(prospects.id, record.prospect.id));
    if (!prospect) throw errors.notFound(M.linkNotValid);
    const { application } = await startApplication(tx, prospect, { productType: selectedProduct, cadence });
    const current = await lockApplication(tx, application.id);
    if (current.step !== "details" || current.applicant) return; // a concurrent submit got here first
    await tx
      .update(applications)
      .set({
        applicant: checked.applicant,
        disclosuresAcceptedAt: new Date(),
        step: blocked ? "result" : "quote",
        blockedReason: blocked ? BLOCKED_REASONS.identityCheckFailed : null,
        updatedAt: new Date(),
      })
      .where(eq(applications.id, current.id));
    if (!blocked) await requestUnderwriting(tx, current);
  });
  return { ok: true, view: await viewOf(params) };
}

/** The renter's choice as a product and cadence among the offers, or the field errors. */
function checkChoice(record: EnrollmentRecord, input: ChoiceInput): { choice: Choice; fields?: undefined } | { choice?: undefined; fields: FieldErrors } {
  const offer = offersOf(record).find((o) => o.productType === input.productType);
  if (!offer) return { fields: { productType: [M.productRequired] } };
  if (offer.productType === "cash_deposit") return { choice: { productType: offer.productType, cadence: null } };
  if (!CADENCES.includes(input.cadence as Cadence)) return { fields: { cadence: [M.cadenceRequired] } };
  return { choice: { productType: offer.productType, cadence: input.cadence as Cadence } };
}

/** Step 3 (decisions §10): the choice → `submitApplication` (`policy_application.submitted`); next is pay. */
export async function chooseProduct(params: LinkParams, input: ChoiceInput): Promise<ActionResult> {
  const db = await getDb();
  const record = await requireRecord(db, params);
  const env = flowEnv();
  const view = await currentView(db, record, env);
  const application = openApplication(record);
  // On pay the renter may still choose again (a double submit, the back button): payment has not happened.
  if ((view.step !== "choose" && view.step !== "pay") || !application) throw errors.conflict(M.notCurrentStep);
  const checked = checkChoice(record, input);
  if (checked.fields) return { ok: false, message: M.choiceInvalid, fields: checked.fields, view: chooseView(record, env) };
  await db.transaction(async (tx) => {
    await enterOwnerWrite(tx, { ...record.owner });
    // Paid in another tab since this request read the step: the choice is final.
    const locked = await lockApplication(tx, application.id);
    if (locked.paidAt || (locked.step !== "choose" && locked.step !== "pay")) throw errors.conflict(M.notCurrentStep);
    // A payment in flight (another tab) or not yet resolved is for the chosen option: it stays.
    if (locked.paymentKey) throw errors.conflict(M.paymentInProgress);
    const submitted = await submitApplication(tx, locked, checked.choice);
    // The same choice submitted again is not re-announced, but the renter moves on to pay all the same.
    if (submitted.step !== "pay") {
      await tx
        .update(applications)
        .set({ step: "pay", updatedAt: new Date() })
        .where(and(eq(applications.id, submitted.id), isNull(applications.paidAt)));
    }
  });
  return { ok: true, view: await viewOf(params) };
}

/** From pay back to choose, before payment only (decisions §10 step (3)). */
export async function changeChoice(params: LinkParams): Promise<ActionResult> {
  const db = await getDb();
  const record = await requireRecord(db, params);
  const view = await currentView(db, record);
  if (view.step === "choose") return { ok: true, view };
  const application = openApplication(record);
  if (view.step !== "pay" || !application) throw errors.conflict(view.step === "result" && view.state === "completed" ? M.alreadyPaid : M.notCurrentStep);
  const moved = await db
    .update(applications)
    .set({ step: "choose", updatedAt: new Date() })
    .where(and(eq(applications.id, application.id), eq(applications.step, "pay"), isNull(applications.paidAt), isNull(applications.paymentKey)))
    .returning({ id: applications.id, paidAt: applications.paidAt });
  if (moved.length === 0) {
    const [current] = await db.select({ paymentKey: applications.paymentKey }).from(applications).where(eq(applications.id, application.id));
    throw errors.conflict(current?.paymentKey ? M.paymentInProgress : M.alreadyPaid);
  }
  return { ok: true, view: await viewOf(params) };
}

function refused(view: PayView, message: string, fields: FieldErrors = {}): ActionResult {
  return { ok: false, message, fields, view };
}

/**
 * Step 4 (decisions §10): the card is checked first (nothing charged on a mistake), then the
 * application's payment claim is taken (`claimPayment`: the form's key `application:pa_<id>:<attempt>`,
 * or the claim already open) and charged under it, then the policy or the cash deposit is recorded
 * with the payment in one transaction. A decline releases the claim and leaves the application as it
 * was (the renter may try another card). If that transaction fails after the charge, any later
 * submission replays the claim (processor idempotency) and issues: charged once.
 */
export async function payEnrollment(params: LinkParams, input: PaymentInput): Promise<ActionResult> {
  const db = await getDb();
  const record = await requireRecord(db, params);
  const env = flowEnv();
  const view = await currentView(db, record, env);
  const application = openApplication(record);
  if (view.step === "result" && view.state === "completed" && application?.paidAt) return { ok: true, view };
  if (view.step !== "pay" || !application) throw errors.conflict(M.notCurrentStep);
  if (!view.paymentAvailable) return refused(view, PAYMENT_MESSAGES.notConfigured);
  // Through Stripe, card data never reaches this server (decisions §18): the Payment Element's token does.
  if (paymentPortFor(getConfig())) return refused(view, M.paymentTokenInvalid);

  const checked = checkCard({ number: input.number ?? "", expiry: input.expiry ?? "", cvc: input.cvc ?? "", postalCode: input.postalCode ?? "" }, new Date());
  const fields: FieldErrors = { ...(checked.errors ?? {}) };
  if (!(input.nameOnCard ?? "").trim()) fields.nameOnCard = [M.nameOnCardRequired];
  if (Object.keys(fields).length) return refused(view, M.cardInvalid, fields);
  if (!ATTEMPT.test(input.attempt ?? "")) return refused(view, M.attemptInvalid);

  const subject = `application:pa_${application.id}`;
  const claim = await claimPayment(db, record.owner, application.id, `${subject}:${input.attempt}`, view.amountDueCents);
  if (claim === "paid") return { ok: true, view: await viewOf(params) };
  const amountCents = claim.amountCents;
  let result: Awaited<ReturnType<ReturnType<typeof processorFor>["charge"]>>;
  try {
    const processor = processorFor(getConfig());
    const card = { number: input.number, expiry: input.expiry, cvc: input.cvc, postalCode: input.postalCode };
    // decisions §11 Billing: a monthly premium is charged each month to the card of the purchase, so
    // the card is kept first and this first month charged to the kept card (billing follows the charge).
    const source = view.cadence === "monthly" ? { methodId: (await processor.storeMethod(card)).methodId } : { card };
    result = await processor.charge({
      idempotencyKey: claim.key,
      amountCents,
      currency: "usd",
      description: `${view.summary} — ${record.owner.name}`,
      metadata: { subject, owner: record.owner.slug },
      ...source,
    });
  } catch (error) {
    // Refused before any charge (a card the processor will not take, no processor): the claim goes.
    if (error instanceof AppError && (error.kind === "invalid" || error.kind === "unavailable")) {
      await releasePayment(db, application.id, claim.key);
      return error.kind === "invalid" ? refused(view, M.cardInvalid, error.fields ?? {}) : refused(view, error.message);
    }
    // Outcome unknown: the claim stays, and the next submission replays its key.
    throw error;
  }
  if (result.status === "declined") {
    // The view was rendered for this request: its `attempt` is already a new one for the next card.
    await releasePayment(db, application.id, claim.key);
    return refused(view, result.message);
  }

  const charge = result;
  const paidAt = new Date();
  await db.transaction(async (tx) => {
    await enterOwnerWrite(tx, { ...record.owner });
    const current = await lockApplication(tx, application.id);
    // Recorded already: by the other tab that replayed the same claim, or by an earlier try of this one.
    if (current.paidAt) {
      if (current.paymentChargeId !== charge.chargeId)
        logger().error({ applicationId: current.id, kept: current.paymentChargeId, extra: charge.chargeId }, "enrollment paid twice: refund the extra charge");
      return;
    }
    // Choices are refused while a claim is open, so this is what was charged.
    const charged = { productType: view.productType, cadence: view.cadence };
    if (current.productType !== charged.productType || current.cadence !== charged.cadence) {
      logger().warn({ applicationId: current.id, charged }, "enrollment choice changed during payment: issuing what was charged");
    }
    await tx
      .update(applications)
      .set({
        ...charged,
        paymentChargeId: charge.chargeId,
        paymentAmountCents: amountCents,
        paymentLast4: charge.last4,
        paidAt,
        paymentKey: null,
        paymentKeyAmountCents: null,
        updatedAt: new Date(),
      })
      .where(eq(applications.id, current.id));
    if (charged.productType === "cash_deposit") await recordCashDeposit(tx, current);
    else await issuePolicy(tx, current, { paidAt });
  });
  return { ok: true, view: await viewOf(params) };
}

type PaymentClaim = { key: string; amountCents: number };

/**
 * Takes the application's payment claim (decisions §10 Payment), or the one already open: a second
 * tab, a double submit or a retry after a crash then charges with the same idempotency key and
 * amount, so the processor charges once and answers every submission with the same result.
 * Committed before the charge, so it outlives a transaction that fails after the processor charged.
 */
async function claimPayment(db: Db, owner: Owner, applicationId: number, key: string, amountCents: number): Promise<PaymentClaim | "paid"> {
  return db.transaction(async (tx) => {
    await enterOwnerWrite(tx, { ...owner });
    const current = await lockApplication(tx, applicationId);
    if (current.paidAt) return "paid";
    if (current.step !== "pay") throw errors.conflict(M.notCurrentStep);
    if (current.paymentKey && current.paymentKeyAmountCents !== null) return { key: current.paymentKey, amountCents: current.paymentKeyAmountCents };
    await tx.update(applications).set({ paymentKey: key, paymentKeyAmountCents: amountCents, updatedAt: new Date() }).where(eq(applications.id, applicationId));
    return { key, amountCents };
  });
}

/** Ends a claim whose charge did not happen or was declined: the next card is a new attempt. */
async function releasePayment(db: Db, applicationId: number, key: string): Promise<void> {
  await db
    .update(applications)
    .set({ paymentKey: null, paymentKeyAmountCents: null, updatedAt: new Date() })
    .where(and(eq(applications.id, applicationId), eq(applications.paymentKey, key), isNull(applications.paidAt)));
}

export { payWithToken };

/** The service as the contract names it (the pages, the benchmark and the tests call these). */
export const flowService: FlowService = { loadEnrollment, submitDetails, chooseProduct, changeChoice, payEnrollment, payWithToken };
