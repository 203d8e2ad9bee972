"use server";

import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { ACCOUNT_MESSAGES } from "@/features/account/messages";
import { payNow, updateCard } from "@/features/account/payments";
import { ACCOUNT_COOKIE, redeemSignInLink, requestSignInLink, revokeAccountSession } from "@/features/account/sign-in";
import { clientAddressOf } from "@/features/console/client-address";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db/client";
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

/** The one error model (`toAppError`): the renter's mistakes stay on the form, not theirs is a 404. */
function refusal(error: unknown, values: Record<string, string>): FormState {
  const failure = toAppError(error);
  if (failure.kind === "not_found") notFound();
  if (failure.kind === "invalid") return { status: "error", message: failure.message, fields: failure.fields ?? {}, values };
  if (failure.kind === "conflict" || failure.kind === "unavailable") return { status: "error", message: failure.message, fields: {}, values };
  throw error;
}
