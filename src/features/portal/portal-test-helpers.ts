import { getDb } from "../../server/db/client";
import { call, throughDoor } from "../../test/http";
import { PORTAL_COOKIE, type PortalSession, portalSessionOf } from "./session";

export type Opened = { status_code: number; url: string; expires_at: string };

/** A visit of a portal URL through the door (its path only), as a browser's first visit. */
export const visitPortalLink = (url: string, headers: Record<string, string> = {}) =>
  throughDoor(new Request(`http://localhost${new URL(url).pathname}`, { headers }));

/** The `/portal` cookie a visit's answer sets, or undefined. */
export function portalCookieOf(answer: Response): string | undefined {
  const header = answer.headers.get("set-cookie") ?? "";
  const match = new RegExp(`^${PORTAL_COOKIE}=([^;]*)`).exec(header);
  return match?.[1] || undefined;
}

/**
 * Opens a portal session as a partner does (the route through the door, then the link's first visit):
 * the cookie, the live session it opens, the link and the route's answer.
 */
export async function openedPortal(partner: { owner: { slug: string }; token: string }, body: Record<string, unknown> = {}) {
  const opened = await call<Opened>("POST", `/api/partners/${partner.owner.slug}/portal_sessions`, { token: partner.token, body });
  if (opened.status !== 201) throw new Error(`portal session not opened: ${opened.status} ${opened.text}`);
  const entered = await visitPortalLink(opened.body.url);
  const cookie = portalCookieOf(entered);
  if (!cookie) throw new Error(`no cookie: ${entered.status}`);
  const session = await portalSessionOf(await getDb(), cookie);
  if (!session) throw new Error("no live session");
  return { cookie, session: session as PortalSession, url: opened.body.url, entered };
}
