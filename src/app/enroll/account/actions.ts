"use server";

import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { ACCOUNT_MESSAGES } from "@/features/account/messages";
import { payNow, updateCard } from "@/features/account/payments";
import { ACCOUNT_COOKIE, redeemSignInLink, requestSignInLink, revokeAccountSession } from "@/features/account/sign-in";
import { updateCardWithToken } from "@/features/account/stripe-card";
import { payNowWithToken } from "@/features/account/stripe-payments";
import { clientAddressOf } from "@/features/console/client-address";
import { getConfig } from "@/server/config";
import { type Db, getDb } from "@/server/db/client";
import { toAppError } from "@/server/to-app-error";
import type { FormState } from "../_components/form-state";
import { ACCOUNT_PATH, currentRenter } from "./_components/session";

/*
 * The renter account's server actions (decisions §19). Each reads the session from the HttpOnly
 * cookie itself: nothing the form sends says who the renter is, and a policy id bound by the page
 * is checked against the session's email by the account feature (another renter's: not found).
 */

export type RequestLinkState = FormState | { status: "sent" };

export async function requestLinkAction(_previous: RequestLinkState, form: FormData): Promise<RequestLinkState> {
  const email = String(form.get("email") ?? "");
  try {
    const answer = await requestSignInLink(await getDb(), { email, clientAddress: clientAddressOf(Object.fromEntries((await headers()).entries())) });
    if (answer.outcome === "throttled") return { status: "error", message: ACCOUNT_MESSAGES.throttled, fields: {}, values: { email } };
    return { status: "sent" };
  } catch (error) {
    const failure = toAppError(error);
    if (failure.kind === "invalid") return { status: "error", message: failure.message, fields: failure.fields ?? {}, values: { email } };
    throw error;
  }
}

/** The link's page posts this (a mail scanner's GET opens nothing): used once, it becomes the session cookie. */
export async function redeemLinkAction(token: string, _previous: FormState, _form: FormData): Promise<FormState> {
  const visit = await redeemSignInLink(await getDb(), token);
  if (!visit.ok) {
    const message =
      visit.reason === "used" ? ACCOUNT_MESSAGES.linkUsed : visit.reason === "expired" ? ACCOUNT_MESSAGES.linkExpired : ACCOUNT_MESSAGES.linkInvalid;
    return { status: "error", message, fields: {}, values: {} };
  }
  (await cookies()).set(ACCOUNT_COOKIE, visit.session.token, {
    httpOnly: true,
    secure: getConfig().publicBaseUrl.toLowerCase().startsWith("https:"),
    sameSite: "lax",
    // The whole host: the enrollment host may be served under another prefix by a proxy (decisions §2).
    path: "/",
    expires: visit.session.expiresAt,
  });
  redirect(ACCOUNT_PATH);
}

export async function signOutAction(): Promise<void> {
  const jar = await cookies();
  await revokeAccountSession(await getDb(), jar.get(ACCOUNT_COOKIE)?.value);
  jar.delete({ name: ACCOUNT_COOKIE, path: "/" });
  redirect(ACCOUNT_PATH);
}

const cardOf = (form: FormData) => ({
  number: String(form.get("number") ?? "").replace(/[\s-]/g, ""),
  expiry: String(form.get("expiry") ?? ""),
  cvc: String(form.get("cvc") ?? ""),
  postalCode: String(form.get("postalCode") ?? ""),
});
/** What a refused card form keeps: never the number or the security code (decisions §10). */
const keptOf = (form: FormData) => ({
  nameOnCard: String(form.get("nameOnCard") ?? ""),
  expiry: String(form.get("expiry") ?? ""),
  postalCode: String(form.get("postalCode") ?? ""),
});

export async function payNowAction(policyId: number, _previous: FormState, form: FormData): Promise<FormState> {
  const renter = await currentRenter();
  if (!renter) redirect(ACCOUNT_PATH);
  let outcome: Awaited<ReturnType<typeof payNow>>;
  try {
    outcome = await payNow(await getDb(), renter.email, policyId, cardOf(form));
  } catch (error) {
    return refusal(error, keptOf(form));
  }
  if (outcome.outcome === "declined") return { status: "error", message: outcome.message, fields: {}, values: keptOf(form) };
  redirect(`${ACCOUNT_PATH}?done=${outcome.outcome === "paid" ? "paid" : "nothing-due"}`);
}

export async function updateCardAction(policyId: number, _previous: FormState, form: FormData): Promise<FormState> {
  const renter = await currentRenter();
  if (!renter) redirect(ACCOUNT_PATH);
  try {
    await updateCard(await getDb(), renter.email, policyId, cardOf(form));
  } catch (error) {
    return refusal(error, keptOf(form));
  }
  redirect(`${ACCOUNT_PATH}?done=card`);
}

/*
 * Through Stripe (decisions §18): the form sends the Payment Element's ConfirmationToken, never a
 * card. Paid or saved: back to the policies with the confirmation. The bank asks for 3-D Secure:
 * the browser goes to its page, which returns to the same account page. A decline stays on the form.
 */
type StripeAnswer =
  | { outcome: "paid" | "nothing_due" | "saved" | "processing" }
  | { outcome: "requires_action"; redirectUrl: string | null }
  | { outcome: "declined"; message: string };

/** A Stripe form's one shape: the token confirmed by `run`, then the page's answer to the renter. */
async function stripeFormAction(
  page: "pay" | "card",
  policyId: number,
  form: FormData,
  run: (db: Db, email: string, policyId: number, token: string) => Promise<StripeAnswer>,
): Promise<FormState> {
  const renter = await currentRenter();
  if (!renter) redirect(ACCOUNT_PATH);
  let answer: StripeAnswer;
  try {
    answer = await run(await getDb(), renter.email, policyId, String(form.get("token") ?? ""));
  } catch (error) {
    return refusal(error, {});
  }
  if (answer.outcome === "declined") return { status: "error", message: answer.message, fields: {}, values: {} };
  const here = `${ACCOUNT_PATH}/policies/${policyId}/${page}`;
  if (answer.outcome === "requires_action") redirect(answer.redirectUrl ?? here);
  if (answer.outcome === "processing") redirect(here);
  redirect(`${ACCOUNT_PATH}?done=${answer.outcome === "saved" ? "card" : answer.outcome === "paid" ? "paid" : "nothing-due"}`);
}

export async function payNowStripeAction(policyId: number, _previous: FormState, form: FormData): Promise<FormState> {
  return stripeFormAction("pay", policyId, form, payNowWithToken);
}

export async function updateCardStripeAction(policyId: number, _previous: FormState, form: FormData): Promise<FormState> {
  return stripeFormAction("card", policyId, form, updateCardWithToken);
}

/** The one error model (`toAppError`): the renter's mistakes stay on the form, not theirs is a 404. */
function refusal(error: unknown, values: Record<string, string>): FormState {
  const failure = toAppError(error);
  if (failure.kind === "not_found") notFound();
  if (failure.kind === "invalid") return { status: "error", message: failure.message, fields: failure.fields ?? {}, values };
  if (failure.kind === "conflict" || failure.kind === "unavailable") return { status: "error", message: failure.message, fields: {}, values };
  throw error;
}
