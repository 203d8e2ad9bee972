import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../server/config";
import type { Db, Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { claimSignInAttempt } from "../console/sign-in";
import { renterUsers } from "../enrollment/renters/users.table";
import { queueRenterMessage } from "../messages/queue";
import { accountSessions, accountSignInLinks } from "./account.table";
import { ACCOUNT_MESSAGES as M } from "./messages";
import { emailHasPolicies } from "./owned";

/**
 * Signing in to the renter's account (decisions §19; docs/decisions.md, "Renter account: sign-in by
 * email link"): the renter gives an email, a link valid 15 minutes and usable once is sent through
 * the outbox (`account_sign_in`), and its visit opens a 12-hour session kept server-side, so
 * signing out revokes it. The answer to a request never says whether the email is known.
 */
export const SIGN_IN_LINK_MINUTES = 15;
export const ACCOUNT_SESSION_HOURS = 12;
export const ACCOUNT_COOKIE = "pis_account";
/** Where a link opens, under the enrollment host: `{enrollment_host}/account/sign-in/<token>`. */
export const ACCOUNT_SIGN_IN_PATH = "/account/sign-in";

/** 32 random bytes, base64url: unguessable, and only its hash is kept. */
const newToken = () => randomBytes(32).toString("base64url");
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const emailSchema = z.string().trim().toLowerCase().max(254).email();

export type LinkRequest = { outcome: "sent" } | { outcome: "throttled" };

/**
 * A sign-in request: the email's format is the renter's to fix (a field error); then the request
 * counts against §15's limits (5 per email, 20 per client address in 15 minutes, the console's
 * limiter in its `account` scope), known email or not; under them, a known email (a renter user or
 * a policy's renter) gets a link in the outbox. Unknown or known, the answer is the same `sent`.
 */
export async function requestSignInLink(db: Db, input: { email: string; clientAddress: string }): Promise<LinkRequest> {
  const parsed = emailSchema.safeParse(input.email);
  if (!parsed.success) throw errors.invalidFields(M.emailCheck, { email: [M.emailInvalid] });
  const email = parsed.data;
  const attempt = await claimSignInAttempt(db, { scope: "account", email, clientAddress: input.clientAddress });
  if (attempt === undefined) return { outcome: "throttled" };
  await db.transaction(async (tx) => {
    if (!(await isKnownRenter(tx, email))) return;
    const token = newToken();
    const expiresAt = new Date(Date.now() + SIGN_IN_LINK_MINUTES * 60_000);
    await tx.insert(accountSignInLinks).values({ tokenHash: tokenHash(token), email, expiresAt });
    await queueRenterMessage(tx, { kind: "account_sign_in", to: email, link: signInUrl(token), expiresAt: expiresAt.toISOString() });
  });
  return { outcome: "sent" };
}

async function isKnownRenter(tx: Tx, email: string): Promise<boolean> {
  const [user] = await tx.select({ id: renterUsers.id }).from(renterUsers).where(eq(renterUsers.email, email)).limit(1);
  return user !== undefined || (await emailHasPolicies(tx, email));
}

/** The link in the message: absolute, on the enrollment host (decisions §2, §19). */
export function signInUrl(token: string): string {
  return `${getConfig().enrollmentBaseUrl}${ACCOUNT_SIGN_IN_PATH}/${token}`;
}

export type LinkVisit = { ok: true; session: { token: string; email: string; expiresAt: Date } } | { ok: false; reason: "used" | "expired" | "invalid" };

/**
 * A link's visit: the link is marked used and a session opened in one transaction, so two visits
 * of one link (two tabs, a mail scanner and the renter) open one session; the second is told the
 * link was used. Expired and unknown links say so.
 */
export async function redeemSignInLink(db: Db, token: string | undefined): Promise<LinkVisit> {
  if (!token || !TOKEN_PATTERN.test(token)) return { ok: false, reason: "invalid" };
  const hash = tokenHash(token);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(accountSignInLinks)
      .set({ usedAt: sql`now()` })
      .where(and(eq(accountSignInLinks.tokenHash, hash), isNull(accountSignInLinks.usedAt), gt(accountSignInLinks.expiresAt, sql`now()`)))
      .returning({ email: accountSignInLinks.email });
    if (!used) {
      const [link] = await tx.select().from(accountSignInLinks).where(eq(accountSignInLinks.tokenHash, hash));
      return { ok: false, reason: !link ? "invalid" : link.usedAt ? "used" : "expired" } as const;
    }
    const sessionToken = newToken();
    const expiresAt = new Date(Date.now() + ACCOUNT_SESSION_HOURS * 3_600_000);
    await tx.insert(accountSessions).values({ tokenHash: tokenHash(sessionToken), email: used.email, expiresAt });
    return { ok: true, session: { token: sessionToken, email: used.email, expiresAt } } as const;
  });
}

export type AccountSessionView = { email: string; expiresAt: Date };

/** The session a cookie names: undefined when unknown, revoked or past its 12 hours. */
export async function accountSessionOf(db: Tx, token: string | undefined): Promise<AccountSessionView | undefined> {
  if (!token || !TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ email: accountSessions.email, expiresAt: accountSessions.expiresAt })
    .from(accountSessions)
    .where(and(eq(accountSessions.tokenHash, tokenHash(token)), isNull(accountSessions.revokedAt), gt(accountSessions.expiresAt, sql`now()`)));
  return row;
}

/** Sign-out: the session is refused from now on, whatever copy of the cookie is presented. */
export async function revokeAccountSession(db: Tx, token: string | undefined): Promise<void> {
  if (!token || !TOKEN_PATTERN.test(token)) return;
  await db
    .update(accountSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(accountSessions.tokenHash, tokenHash(token)), isNull(accountSessions.revokedAt)));
}
