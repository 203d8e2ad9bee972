import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { derivedKey } from "../../server/secrets";
import { apiClients, clientOwnerGrants } from "../auth/clients.table";
import { propertyOwners } from "../owners/owners.table";
import type { Subscriber } from "../webhooks/endpoints";

/**
 * Portal sessions (decisions §16 Portal; docs/decisions.md, "Partner developer: portal"): a signed,
 * stateless token `v1.<claims>.<mac>`, HMAC-SHA256 under a key derived from the master key for this
 * purpose only. The claims name the client, the owner and the expiry (one hour after issue). The
 * URL carries it once; the first visit trades it for an HttpOnly cookie scoped to `/portal` holding
 * the same token, so it leaves the address bar. Every page re-reads the client (still active) and
 * the owner grant (still held), so a disabled client or a revoked grant closes its open portals.
 */
export const PORTAL_SESSION_SECONDS = 3600;
export const PORTAL_COOKIE = "pis_portal";
/** Where the session's URL opens: `{PUBLIC_BASE_URL}/portal/session/<token>` (the door's mount). */
export const PORTAL_ENTRY_PATH = "/portal/session";

type Claims = { c: string; o: number; x: number; n: string };

const mac = (text: string) => createHmac("sha256", derivedKey("portal-session")).update(text).digest("base64url");

export function signPortalToken(clientId: string, ownerId: number, now = Date.now()): { token: string; expiresAt: Date } {
  const expiresAt = new Date(Math.floor(now / 1000) * 1000 + PORTAL_SESSION_SECONDS * 1000);
  const claims: Claims = { c: clientId, o: ownerId, x: expiresAt.getTime() / 1000, n: randomBytes(9).toString("base64url") };
  const body = `v1.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return { token: `${body}.${mac(body)}`, expiresAt };
}

export type TokenCheck = { ok: true; clientId: string; ownerId: number; expiresAt: Date } | { ok: false; reason: "invalid" | "expired" };

/** The token's claims when its MAC verifies and it has not expired. Never throws. */
export function verifyPortalToken(token: string | undefined, now = Date.now()): TokenCheck {
  const parts = (token ?? "").split(".");
  if (parts.length !== 3 || parts[0] !== "v1" || token === undefined || token.length > 512) return { ok: false, reason: "invalid" };
  const expected = Buffer.from(mac(`${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "invalid" };
  let claims: Claims;
  try {
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (typeof claims.c !== "string" || !Number.isInteger(claims.o) || typeof claims.x !== "number") return { ok: false, reason: "invalid" };
  if (claims.x * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, clientId: claims.c, ownerId: claims.o, expiresAt: new Date(claims.x * 1000) };
}

export type PortalSession = {
  clientId: string;
  owner: { id: number; slug: string; name: string; embeddedFrameAncestors: string[] };
  expiresAt: Date;
  subscriber: Subscriber;
};

/**
 * The session a token opens, read from the database: undefined when the token does not verify, the
 * client is disabled or the client no longer holds the owner's grant. A merged owner answers its
 * survivor (owners/merge: the survivor holds the duplicate's endpoints).
 */
export async function portalSessionOf(tx: Tx, token: string | undefined): Promise<PortalSession | undefined> {
  const check = verifyPortalToken(token);
  if (!check.ok) return undefined;
  const [row] = await tx
    .select({ id: propertyOwners.id, slug: propertyOwners.slug, name: propertyOwners.name, frames: propertyOwners.embeddedFrameAncestors })
    .from(propertyOwners)
    .innerJoin(clientOwnerGrants, and(eq(clientOwnerGrants.ownerId, propertyOwners.id), eq(clientOwnerGrants.clientId, check.clientId)))
    .innerJoin(apiClients, and(eq(apiClients.id, check.clientId), isNull(apiClients.disabledAt)))
    .where(eq(propertyOwners.id, sql`(select coalesce(o.merged_into_id, o.id) from property_owners o where o.id = ${check.ownerId})`));
  if (!row) return undefined;
  return {
    clientId: check.clientId,
    owner: { id: row.id, slug: row.slug, name: row.name, embeddedFrameAncestors: row.frames ?? [] },
    expiresAt: check.expiresAt,
    subscriber: { ownerId: row.id, clientId: check.clientId },
  };
}
