import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { PORTAL_COOKIE, type PortalSession, portalSessionOf } from "@/features/portal/session";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";

/**
 * The portal session of this request's `/portal` cookie, re-checked against the database on every page
 * and action (signed out, expired, client active at the same secret version with `webhooks:manage`,
 * grant held: docs/decisions.md, "Second security review").
 */
export async function currentPortalSession(): Promise<PortalSession | undefined> {
  const token = (await cookies()).get(PORTAL_COOKIE)?.value;
  return token ? portalSessionOf(await getDb(), token) : undefined;
}

/** Runs a portal read; an endpoint or delivery outside the session's reach renders the portal's not-found page. */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && (error.kind === "not_found" || error.kind === "invalid")) notFound();
    throw error;
  }
}

/** Notices a change leaves in the URL after its redirect: fixed codes, never text from the request. */
export const NOTICES = {
  retried: "The delivery was queued again.",
  paused: "The endpoint is paused: new deliveries wait until you resume it.",
  resumed: "The endpoint is active again: waiting deliveries are being sent.",
  scheduled: "This delivery is already scheduled: it can be retried once it has failed or been delivered.",
  too_soon: "A delivered delivery can be sent again once a minute: try again shortly.",
  ended: "Your portal session has ended. Open a new portal link from your platform.",
  signed_out: "You are signed out of the portal.",
} as const;

export type Notice = keyof typeof NOTICES;

export function noticeOf(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value in NOTICES ? NOTICES[value as Notice] : undefined;
}
