import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { derivedKey } from "../../server/secrets";
import { apiClients, clientOwnerGrants } from "../auth/clients.table";
import { propertyOwners } from "../owners/owners.table";
import type { Subscriber } from "../webhooks/endpoints";
import { portalSessions } from "./portal-sessions.table";

/**
 * Portal sessions (decisions §16 Portal; docs/decisions.md, "Partner developer: portal" and "Second
 * security review"). Opening one writes a `portal_sessions` row and answers a signed link
 * `v1.<claims>.<mac>` (HMAC-SHA256 under a key derived from the master key for this purpose only)
 * whose claims name the row (`n`), the client, the owner and the expiry (one hour). The link opens
 * once: its first visit marks the row exchanged and sets an HttpOnly cookie scoped to `/portal`
 * holding a fresh random value, whose hash the row keeps. Every page and action reads the row again:
 * not signed out, not expired, the client active with the secret version of the session's issue and
 * `webhooks:manage`, the owner still granted; anything else ends the session.
 */
export const PORTAL_SESSION_SECONDS = 3600;
export const PORTAL_COOKIE = "pis_portal";
/** Where the session's URL opens: `{PUBLIC_BASE_URL}/portal/session/<token>` (the door's mount). */
export const PORTAL_ENTRY_PATH = "/portal/session";
/** The sign-out form's target: a POST ends the session of the cookie it carries. */
export const PORTAL_SIGN_OUT_PATH = `${PORTAL_ENTRY_PATH}/end`;
/** The scope a client needs to open and keep a portal session. */
export const PORTAL_SCOPE = "webhooks:manage";

type Claims = { c: string; o: number; x: number; n: string };

const mac = (text: string) => createHmac("sha256", derivedKey("portal-session")).update(text).digest("base64url");
const hashOf = (cookie: string) => createHash("sha256").update(cookie).digest("base64url");

export function signPortalToken(clientId: string, ownerId: number, sessionId: string, now = Date.now()): { token: string; expiresAt: Date } {
  const expiresAt = new Date(Math.floor(now / 1000) * 1000 + PORTAL_SESSION_SECONDS * 1000);
  const claims: Claims = { c: clientId, o: ownerId, x: expiresAt.getTime() / 1000, n: sessionId };
  const body = `v1.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return { token: `${body}.${mac(body)}`, expiresAt };
}

export type TokenCheck = { ok: true; clientId: string; ownerId: number; sessionId: string; expiresAt: Date } | { ok: false; reason: "invalid" | "expired" };

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
  if (typeof claims.c !== "string" || !Number.isInteger(claims.o) || typeof claims.x !== "number" || typeof claims.n !== "string")
    return { ok: false, reason: "invalid" };
  if (claims.x * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, clientId: claims.c, ownerId: claims.o, sessionId: claims.n, expiresAt: new Date(claims.x * 1000) };
}

/**
 * Opens a session for a client (at its current secret version) and an owner, framed only by the
 * origins the client asked for: the row, and the link that names it.
 */
export async function openPortalSession(
  tx: Tx,
  input: { publicBaseUrl: string; clientId: string; secretVersion: number; ownerId: number; frameAncestors: string[] },
): Promise<{ id: string; url: string; expiresAt: Date }> {
  const id = `ps_${randomBytes(12).toString("base64url")}`;
  const { token, expiresAt } = signPortalToken(input.clientId, input.ownerId, id);
  await tx.insert(portalSessions).values({
    id,
    clientId: input.clientId,
    ownerId: input.ownerId,
    secretVersion: input.secretVersion,
    frameAncestors: input.frameAncestors,
    expiresAt,
  });
  return { id, url: `${input.publicBaseUrl.replace(/\/+$/, "")}${PORTAL_ENTRY_PATH}/${token}`, expiresAt };
}

export type PortalSession = {
  /** The `portal_sessions` row (`ps_…`), named in the audit rows of what the session does. */
  id: string;
  clientId: string;
  owner: { id: number; slug: string; name: string };
  /** The origins that may frame the portal: the client's own request, still listed by the owner. */
  frameAncestors: string[];
  expiresAt: Date;
  subscriber: Subscriber;
};

export type Exchange = { ok: true; cookie: string; session: PortalSession } | { ok: false; reason: "invalid" | "expired" | "used" };

/**
 * The first visit of a link: marks its row exchanged (once: a second visit answers `used`) and answers
 * the cookie that carries the session from then on. A link whose session is no longer live (client
 * disabled, secret rotated, scope or grant removed, signed out) is `invalid`.
 */
export async function exchangePortalLink(tx: Tx, token: string | undefined): Promise<Exchange> {
  const check = verifyPortalToken(token);
  if (!check.ok) return check;
  const cookie = randomBytes(32).toString("base64url");
  const [row] = await tx
    .update(portalSessions)
    .set({ exchangedAt: sql`now()`, cookieHash: hashOf(cookie) })
    .where(
      and(
        eq(portalSessions.id, check.sessionId),
        eq(portalSessions.clientId, check.clientId),
        eq(portalSessions.ownerId, check.ownerId),
        isNull(portalSessions.exchangedAt),
        isNull(portalSessions.revokedAt),
      ),
    )
    .returning({ id: portalSessions.id });
  if (!row) {
    const [known] = await tx.select({ exchangedAt: portalSessions.exchangedAt }).from(portalSessions).where(eq(portalSessions.id, check.sessionId));
    return { ok: false, reason: known?.exchangedAt ? "used" : "invalid" };
  }
  const session = await portalSessionOf(tx, cookie);
  return session ? { ok: true, cookie, session } : { ok: false, reason: "invalid" };
}

/**
 * The live session of a `/portal` cookie, read from the database, or undefined: unknown cookie,
 * signed out, expired, client disabled, client's secret rotated since, `webhooks:manage` removed, or
 * the owner's grant revoked. A merged owner answers its survivor (owners/merge: the survivor holds the
 * duplicate's endpoints).
 */
export async function portalSessionOf(tx: Tx, cookie: string | undefined): Promise<PortalSession | undefined> {
  if (!cookie || cookie.length > 100) return undefined;
  const [row] = await tx
    .select({
      id: portalSessions.id,
      clientId: portalSessions.clientId,
      expiresAt: portalSessions.expiresAt,
      asked: portalSessions.frameAncestors,
      ownerId: propertyOwners.id,
      slug: propertyOwners.slug,
      name: propertyOwners.name,
      frames: propertyOwners.embeddedFrameAncestors,
    })
    .from(portalSessions)
    .innerJoin(
      apiClients,
      and(
        eq(apiClients.id, portalSessions.clientId),
        isNull(apiClients.disabledAt),
        eq(apiClients.secretVersion, portalSessions.secretVersion),
        sql`${PORTAL_SCOPE} = any(${apiClients.scopes})`,
      ),
    )
    .innerJoin(
      propertyOwners,
      eq(propertyOwners.id, sql`(select coalesce(o.merged_into_id, o.id) from property_owners o where o.id = ${portalSessions.ownerId})`),
    )
    .innerJoin(clientOwnerGrants, and(eq(clientOwnerGrants.ownerId, propertyOwners.id), eq(clientOwnerGrants.clientId, portalSessions.clientId)))
    .where(
      and(
        eq(portalSessions.cookieHash, hashOf(cookie)),
        isNotNull(portalSessions.exchangedAt),
        isNull(portalSessions.revokedAt),
        gt(portalSessions.expiresAt, sql`now()`),
      ),
    );
  if (!row) return undefined;
  const ownerOrigins = new Set(row.frames ?? []);
  return {
    id: row.id,
    clientId: row.clientId,
    owner: { id: row.ownerId, slug: row.slug, name: row.name },
    frameAncestors: row.asked.filter((origin) => ownerOrigins.has(origin)),
    expiresAt: row.expiresAt,
    subscriber: { ownerId: row.ownerId, clientId: row.clientId },
  };
}

/** Signs the session of a cookie out (its row revoked): the cookie opens nothing from then on. */
export async function revokePortalSession(tx: Tx, cookie: string | undefined): Promise<string | undefined> {
  if (!cookie || cookie.length > 100) return undefined;
  const [row] = await tx
    .update(portalSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(portalSessions.cookieHash, hashOf(cookie)), isNull(portalSessions.revokedAt)))
    .returning({ id: portalSessions.id });
  return row?.id;
}
