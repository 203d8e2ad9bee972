"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { portalRetryInput, retryPortalDelivery, sendPortalTestEvent, setPortalEndpointPaused } from "@/features/portal/portal";
import { startEndpointRetry } from "@/features/webhooks/console/webhook_delivery__bulk_retry";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { currentPortalSession, type Notice } from "./_lib/session";

const ID = /^[A-Za-z0-9_-]{1,100}$/;
const textOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, 200) : "";
};
const idOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && ID.test(value) ? value : undefined;
};

/** Retry one delivery (decisions §16 Portal), with the partner route's rules. */
export async function retryDeliveryAction(form: FormData): Promise<void> {
  const endpointId = idOf(form, "endpoint_id");
  const deliveryId = idOf(form, "delivery_id");
  const session = await currentPortalSession();
  if (!session) redirect("/portal?notice=ended");
  if (!endpointId || !deliveryId) redirect("/portal");
  let notice: Notice = "retried";
  try {
    await retryPortalDelivery(await getDb(), session, endpointId, deliveryId);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.kind === "conflict") notice = "scheduled";
    else if (error.kind === "too_many_requests") notice = "too_soon";
    else redirect("/portal");
  }
  redirect(`/portal/endpoints/${endpointId}/deliveries/${deliveryId}?notice=${notice}`);
}

/** Pause (`disabled`) or resume (`active`) an endpoint, as its PUT does. */
export async function setEndpointPausedAction(form: FormData): Promise<void> {
  const endpointId = idOf(form, "endpoint_id");
  const paused = form.get("paused") === "true";
  const session = await currentPortalSession();
  if (!session) redirect("/portal?notice=ended");
  if (!endpointId) redirect("/portal");
  try {
    await setPortalEndpointPaused(await getDb(), session, endpointId, paused);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    redirect("/portal");
  }
  redirect(`/portal/endpoints/${endpointId}?notice=${paused ? "paused" : "resumed"}`);
}

/**
 * What the endpoint page's two forms show after their action: the result, or the refusal's message
 * next to its field (`base`: the form's own, e.g. the 409 of a running recovery). Messages are the
 * service's own constants, never text from the request.
 */
export type EndpointFormState = { deliveryId?: string; matched?: number; errors?: Record<string, string[]> };

/** A refusal the form shows; a session that ended or an endpoint out of reach leaves the page, as the others do. */
function refusal(error: unknown): EndpointFormState {
  if (!(error instanceof AppError)) throw error;
  if (error.kind === "invalid" && error.fields) return { errors: error.fields };
  if (error.kind === "conflict" || error.kind === "too_many_requests") return { errors: { base: [error.message] } };
  redirect("/portal");
}

/** Send a test event (docs/decisions.md, "Partner developer: test events") to one of the session's endpoints. */
export async function sendTestEventAction(_previous: EndpointFormState, form: FormData): Promise<EndpointFormState> {
  const endpointId = idOf(form, "endpoint_id");
  const session = await currentPortalSession();
  if (!session) redirect("/portal?notice=ended");
  if (!endpointId) redirect("/portal");
  let state: EndpointFormState;
  try {
    state = await sendPortalTestEvent(await getDb(), session, endpointId, textOf(form, "event"));
  } catch (error) {
    return refusal(error);
  }
  revalidatePath(`/portal/endpoints/${endpointId}`);
  return state;
}

/** Retry an endpoint's failed or retrying deliveries since a time (docs/decisions.md, "Partner developer: self-serve recovery"). */
export async function retryDeliveriesAction(_previous: EndpointFormState, form: FormData): Promise<EndpointFormState> {
  const endpointId = idOf(form, "endpoint_id");
  const session = await currentPortalSession();
  if (!session) redirect("/portal?notice=ended");
  if (!endpointId) redirect("/portal");
  let state: EndpointFormState;
  try {
    const input = portalRetryInput({ status: textOf(form, "status"), since: textOf(form, "since") });
    // The partner route's own function, with the session's subscriber: its owner and its client.
    const { matched } = await startEndpointRetry(await getDb(), session.subscriber, endpointId, input, { portalSession: session.id });
    state = { matched };
  } catch (error) {
    return refusal(error);
  }
  revalidatePath(`/portal/endpoints/${endpointId}`);
  return state;
}
