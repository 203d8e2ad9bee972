"use server";

import { redirect } from "next/navigation";
import { retryPortalDelivery, setPortalEndpointPaused } from "@/features/portal/portal";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { currentPortalSession, type Notice } from "./_lib/session";

const ID = /^[A-Za-z0-9_-]{1,100}$/;
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
