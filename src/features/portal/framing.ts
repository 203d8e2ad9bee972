import { getDb } from "../../server/db/client";
import { logger } from "../../server/log";
import { frameAncestorsHeader, HOSTED_FRAMING_HEADERS } from "../enrollment/framing/frame-ancestors";
import { portalSessionOf } from "./session";

/**
 * The framing headers of a portal page (docs/decisions.md, "Partner developer: portal"), or
 * undefined outside `/portal`. With a live session: the session owner's `embedded_frame_ancestors`
 * only (`'none'` when it lists none), so the partner can put the portal inside its own admin; without
 * one, or when the database fails, never framed. Never throws.
 */
export async function portalFramingHeadersFor(pathname: string, token: string | undefined): Promise<Record<string, string> | undefined> {
  if (pathname !== "/portal" && !pathname.startsWith("/portal/")) return undefined;
  try {
    const session = token ? await portalSessionOf(await getDb(), token) : undefined;
    if (session) return { "Content-Security-Policy": frameAncestorsHeader(session.owner.embeddedFrameAncestors, []) };
  } catch (error) {
    logger().error({ err: error }, "portal framing lookup failed: answering 'none'");
  }
  return { ...HOSTED_FRAMING_HEADERS };
}
