import { getDb } from "../../server/db/client";
import { logger } from "../../server/log";
import { frameAncestorsHeader, HOSTED_FRAMING_HEADERS } from "../enrollment/framing/frame-ancestors";
import { portalSessionOf } from "./session";

/**
 * The framing headers of a portal page (docs/decisions.md, "Partner developer: portal" and "Second
 * security review"), or undefined outside `/portal`. With a live session: the origins the session's own
 * client asked for when opening it, while the owner still lists them (`'none'` when there are none), so
 * a partner can put its portal inside its own admin and another partner of the same owner cannot;
 * without a session, or when the database fails, never framed. Never throws.
 */
export async function portalFramingHeadersFor(pathname: string, token: string | undefined): Promise<Record<string, string> | undefined> {
  if (pathname !== "/portal" && !pathname.startsWith("/portal/")) return undefined;
  try {
    const session = token ? await portalSessionOf(await getDb(), token) : undefined;
    if (session) return { "Content-Security-Policy": frameAncestorsHeader(session.frameAncestors, []) };
  } catch (error) {
    logger().error({ err: error }, "portal framing lookup failed: answering 'none'");
  }
  return { ...HOSTED_FRAMING_HEADERS };
}
