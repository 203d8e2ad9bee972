"use server";

import { randomUUID } from "node:crypto";
import { refresh } from "next/cache";
import { notFound, redirect } from "next/navigation";
import type { ActionResult, LinkParams, StepName } from "@/features/enrollment/flow/contract";
import { FLOW_MESSAGES } from "@/features/enrollment/flow/messages";
import { changeChoice, chooseProduct, payEnrollment, payWithToken, submitDetails } from "@/features/enrollment/flow/service";
import { toAppError } from "@/server/to-app-error";
import type { FormState } from "../../../../_components/form-state";
import { parseChoice } from "../../../../_components/format";

/*
 * The enrollment steps' server actions. The page binds each to its link (`action.bind(null, link)`;
 * Next.js signs bound arguments), the flow service checks the link and does the step. On success the
 * page is refreshed and renders the new current step from the server; on a renter's mistake the
 * form gets the messages and what was typed back (decisions §10: errors beside fields, values kept).
 */

export async function submitDetailsAction(link: LinkParams, _previous: FormState, form: FormData): Promise<FormState> {
  const values = pick(form, ["firstName", "lastName", "phone", "birthdate", "acceptDisclosures"]);
  return settle("details", values, () =>
    submitDetails(link, {
      firstName: values.firstName,
      lastName: values.lastName,
      phone: values.phone,
      birthdate: values.birthdate,
      acceptDisclosures: values.acceptDisclosures === "on",
    }),
  );
}

export async function chooseProductAction(link: LinkParams, _previous: FormState, form: FormData): Promise<FormState> {
  const values = pick(form, ["choice"]);
  return settle("choose", values, () => chooseProduct(link, parseChoice(values.choice)));
}

export async function changeChoiceAction(link: LinkParams, _previous: FormState, _form: FormData): Promise<FormState> {
  return settle("pay", {}, () => changeChoice(link));
}

export async function payEnrollmentAction(link: LinkParams, _previous: FormState, form: FormData): Promise<FormState> {
  const card = pick(form, ["nameOnCard", "number", "expiry", "cvc", "postalCode", "attempt"]);
  // The card number and security code are never sent back: after a decline the renter types them again.
  const kept = { nameOnCard: card.nameOnCard, expiry: card.expiry, postalCode: card.postalCode };
  const state = await settle("pay", kept, () =>
    payEnrollment(link, {
      nameOnCard: card.nameOnCard,
      number: card.number.replace(/[\s-]/g, ""),
      expiry: card.expiry,
      cvc: card.cvc,
      postalCode: card.postalCode,
      attempt: card.attempt || randomUUID(),
    }),
  );
  return state;
}

/** Step 4 through Stripe (decisions §18): the Payment Element's ConfirmationToken, confirmed on the server. */
export async function payWithTokenAction(link: LinkParams, _previous: FormState, form: FormData): Promise<FormState> {
  const token = String(form.get("token") ?? "");
  return settle("pay", {}, () => payWithToken(link, { token }));
}

/**
 * Runs a step and turns its outcome into the form's state: the renter's errors stay on the form;
 * anything else (next step, a step no longer current) refreshes the page; an expedited flow that
 * reached its terminal state with an allowed `redirect_url` sends the browser there.
 */
async function settle(step: StepName, values: Record<string, string>, run: () => Promise<ActionResult>): Promise<FormState> {
  let result: ActionResult;
  try {
    result = await run();
  } catch (error) {
    // The one error model (`toAppError`): a renter's mistake stays on the form, an unknown link is the
    // 404 page, anything else goes on to Next.js's error page as it was thrown.
    const failure = toAppError(error);
    if (failure.kind === "not_found") notFound();
    if (failure.kind === "invalid") return { status: "error", message: failure.message, fields: failure.fields ?? {}, values, attempt: randomUUID() };
    // A payment still being settled keeps the option: the renter is told why, on the same step.
    if (failure.kind === "conflict" && failure.message === FLOW_MESSAGES.paymentInProgress)
      return { status: "error", message: failure.message, fields: {}, values };
    if (failure.kind === "conflict") {
      refresh();
      return { status: "idle" };
    }
    throw error;
  }
  const view = result.view;
  if (view.step === "result" && view.redirectTo) redirect(view.redirectTo);
  // 3-D Secure (decisions §18): the bank's page, which returns to the flow link.
  if (!result.ok && view.step === "pay" && view.nextActionUrl) redirect(view.nextActionUrl);
  if (!result.ok && view.step === step) {
    // The pay view carries a fresh attempt: retrying with another card is another payment attempt.
    const attempt = view.step === "pay" ? view.attempt : undefined;
    return { status: "error", message: result.message, fields: result.fields, values, attempt };
  }
  refresh();
  return { status: "idle" };
}

function pick(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")]));
}
