import { and, eq, isNull } from "drizzle-orm";
import { getConfig } from "../../../server/config";
import { type Db, getDb } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import type { PaymentCharge } from "../../payments/payments.table";
import type { PaymentOutcome, PaymentPort } from "../../payments/port";
import { paymentPortFor } from "../../payments/port-for";
import { customerFor, intentFor, paymentByIntent, recordOutcome } from "../../payments/recorder";
import { applications } from "../applications/applications.table";
import { completeIntentPayment, payKey } from "../applications/intent-payment";
import type { ActionResult, LinkParams, PayView } from "./contract";
import { FLOW_MESSAGES as M } from "./messages";
import { type EnrollmentRecord, requireRecord } from "./state";
import { currentView, openApplication } from "./views";

/**
 * The pay step through Stripe (decisions §18 One-off payment; docs/decisions.md, Payments through
 * Stripe). Entering the step creates (or reuses) one PaymentIntent per application and choice,
 * recorded against our row; the Payment Element makes a ConfirmationToken in the browser, which the
 * server confirms (`payWithToken`); 3-D Secure goes to the bank and returns to the flow link with
 * `payment_intent`. Whatever the browser says, the policy is issued only when the retrieved intent
 * is `succeeded`, once (`completeIntentPayment`, also run by `payment_intent.succeeded`).
 */

/** Stripe's ids the browser may hand us: a ConfirmationToken or a PaymentMethod. */
const TOKEN = /^(ctoken|pm)_[A-Za-z0-9_]{1,200}$/;
const INTENT = /^pi_[A-Za-z0-9_]{1,200}$/;

/** The flow link itself (what the renter opened), where Stripe returns after 3-D Secure. */
export function flowLinkUrl(params: LinkParams): string {
  const base = getConfig().enrollmentBaseUrl;
  const path = [params.flow, params.owner, params.source, params.id].map(encodeURIComponent).join("/");
  const query = new URLSearchParams();
  for (const name of ["email", "sig", "selected_product", "cadence", "redirect_url"] as const) {
    const value = params[name];
    if (value) query.set(name, value);
  }
  return `${base}/${path}?${query}`;
}

/**
 * decisions §18: until a funds-flow decision (Stripe Connect to the owner's payout account) is
 * written, a cash deposit (the landlord's money) is not taken by card through Stripe.
 */
export function stripeRefusesProduct(view: Pick<PayView, "productType">): boolean {
  return view.productType === "cash_deposit";
}

async function openIntent(db: Db, port: PaymentPort, record: EnrollmentRecord, view: PayView) {
  const application = openApplication(record);
  if (!application) throw errors.conflict(M.notCurrentStep);
  const applicant = application.applicant;
  const name = applicant ? `${applicant.firstName} ${applicant.lastName}`.trim() : record.link.email;
  // decisions §18 Monthly premiums: a Customer per renter, the card saved on it for off-session charges.
  const customer = view.cadence === "monthly" ? await customerFor(db, port, { email: record.link.email, name }) : undefined;
  const ref = `pa_${application.id}`;
  return intentFor(db, port, {
    idempotencyKey: payKey(application.id, view.productType, view.cadence),
    amountCents: view.amountDueCents,
    currency: "usd",
    description: `${view.summary} — ${record.owner.name}`,
    metadata: {
      subject: `application:${ref}`,
      application: ref,
      prospect: record.prospect.sourceProspectId,
      owner: record.owner.slug,
      product: view.productType,
      ...(view.cadence ? { cadence: view.cadence } : {}),
    },
    ...(customer ? { saveForCustomer: customer } : {}),
  });
}

/**
 * The pay view with what the Payment Element needs (entering the step): the intent, its client
 * secret, the publishable key and the return link. A cash deposit is refused with its message.
 */
export async function withStripeIntent(db: Db, record: EnrollmentRecord, view: PayView, params: LinkParams): Promise<PayView> {
  const config = getConfig();
  const port = paymentPortFor(config);
  if (!port || !config.stripe || !view.paymentAvailable) return view;
  if (stripeRefusesProduct(view)) return { ...view, paymentAvailable: false, unavailableMessage: M.cashDepositCardOnly };
  const open = await openIntent(db, port, record, view);
  if (!open.clientSecret) throw errors.unavailable(M.paymentUnavailable);
  const lastDecline = open.outcome.status === "requires_payment_method" ? open.outcome.lastDecline?.message : undefined;
  return {
    ...view,
    stripe: {
      publishableKey: config.stripe.publishableKey,
      intentId: open.intentId,
      clientSecret: open.clientSecret,
      returnUrl: flowLinkUrl(params),
      ...(lastDecline ? { lastError: lastDecline } : {}),
    },
  };
}

/**
 * The return from Stripe (`?payment_intent=pi_…` on the flow link, after 3-D Secure or a redirect):
 * the intent is retrieved (the query's `redirect_status` is never read) and, if it paid, the policy
 * issued. An intent that is not this application's changes nothing.
 */
export async function settleReturn(db: Db, record: EnrollmentRecord, intentId: string): Promise<void> {
  const port = paymentPortFor(getConfig());
  const application = openApplication(record);
  if (!port || !application || !INTENT.test(intentId)) return;
  const row = await paymentByIntent(db, intentId);
  if (row?.subject !== `application:pa_${application.id}`) return;
  await completeIntentPayment(db, port, intentId);
}

/**
 * Step 4 through Stripe: the browser's token confirms the application's intent on the server.
 * `succeeded`: the policy is issued now. `requires_action`: the view carries the bank's page to go
 * to (3-D Secure), and the choice is held meanwhile. `processing`: the page waits for Stripe's
 * answer. A decline: the renter may try another card on the same intent.
 */
export async function payWithToken(params: LinkParams, input: { token: string }): Promise<ActionResult> {
  const db = await getDb();
  const record = await requireRecord(db, params);
  const view = await currentView(db, record);
  const application = openApplication(record);
  if (view.step === "result" && view.state === "completed" && application?.paidAt) return { ok: true, view };
  if (view.step !== "pay" || !application) throw errors.conflict(M.notCurrentStep);
  const port = paymentPortFor(getConfig());
  if (!port) throw errors.conflict(M.notCurrentStep);
  if (stripeRefusesProduct(view)) return { ok: false, message: M.cashDepositCardOnly, fields: {}, view };
  if (!TOKEN.test(input.token ?? "")) return { ok: false, message: M.paymentTokenInvalid, fields: {}, view };

  const open = await openIntent(db, port, record, view);
  const reload = async () => currentView(db, await requireRecord(db, params));
  let outcome: PaymentOutcome = open.outcome;
  if (outcome.status === "requires_payment_method" || outcome.status === "requires_action") {
    outcome = await port.confirmIntent(open.intentId, { token: input.token, returnUrl: flowLinkUrl(params) });
    await recordOutcome(db, port.name, outcome);
  }
  switch (outcome.status) {
    case "succeeded":
      await completeIntentPayment(db, port, open.intentId);
      return { ok: true, view: await reload() };
    case "requires_action":
    case "processing":
      await holdChoice(db, application.id, open.row);
      if (outcome.status === "processing") return { ok: false, message: M.paymentProcessing, fields: {}, view: await reload() };
      return { ok: false, message: M.authenticationNeeded, fields: {}, view: { ...view, nextActionUrl: outcome.redirectUrl ?? undefined } };
    case "declined":
      return { ok: false, message: outcome.decline.message, fields: {}, view };
    case "requires_payment_method":
      return { ok: false, message: outcome.lastDecline?.message ?? M.paymentTokenInvalid, fields: {}, view };
    case "canceled":
      return { ok: false, message: M.paymentUnavailable, fields: {}, view };
  }
}

/** While the bank or the network decides, the option paid for cannot change (decisions §10 Payment: the claim). */
async function holdChoice(db: Db, applicationId: number, row: PaymentCharge): Promise<void> {
  await db
    .update(applications)
    .set({ paymentKey: row.idempotencyKey, paymentKeyAmountCents: row.amountCents, updatedAt: new Date() })
    .where(and(eq(applications.id, applicationId), isNull(applications.paidAt)));
}
