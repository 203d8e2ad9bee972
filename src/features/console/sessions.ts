import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import type { ConsoleUser } from "../../server/trpc/context";
import { consoleSessions } from "./sessions.table";
import { users } from "./users.table";

/** decisions §15: a session lives at most 12 h whatever its activity (the idle limit is the cookie's own age). */
export const SESSION_LIFETIME_HOURS = 12;
const startedWithinLifetime = gt(consoleSessions.startedAt, sql`now() - make_interval(hours => ${SESSION_LIFETIME_HOURS})`);

/** A new session of this user (at sign-in); its id goes into the session cookie as `sid`. */
export async function startConsoleSession(tx: Tx, userId: number): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  // The user's sessions past their lifetime are of no use any more: each sign-in tidies its own.
  await tx
    .delete(consoleSessions)
    .where(and(eq(consoleSessions.userId, userId), lt(consoleSessions.startedAt, sql`now() - make_interval(hours => ${SESSION_LIFETIME_HOURS})`)));
  await tx.insert(consoleSessions).values({ id, userId });
  return id;
}

/** Sign-out (decisions §15): the session is refused from now on, whoever holds a copy of its cookie. */
export async function revokeConsoleSession(tx: Tx, sid: unknown): Promise<void> {
  if (typeof sid !== "string") return;
  await tx
    .update(consoleSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(consoleSessions.id, sid), isNull(consoleSessions.revokedAt)));
}

/** Whether a session may still be used: started less than 12 h ago and not signed out. */
export async function isConsoleSessionLive(tx: Tx, sid: unknown): Promise<boolean> {
  if (typeof sid !== "string") return false;
  const [row] = await tx
    .select({ id: consoleSessions.id })
    .from(consoleSessions)
    .where(and(eq(consoleSessions.id, sid), isNull(consoleSessions.revokedAt), startedWithinLifetime));
  return row !== undefined;
}

/**
 * The user a session names, as the database has them now, or null: a session outlives neither its
 * sign-out, its 12 h, its user's disabling nor a password reset after it started. The role is read
 * here too, so a role change applies on the user's next request, not at their next sign-in.
 */
export async function activeSessionUser(tx: Tx, session: { id: number; sid: string }): Promise<ConsoleUser | null> {
  const [row] = await tx
    .select({ user: users, startedAt: consoleSessions.startedAt })
    .from(consoleSessions)
    .innerJoin(users, eq(users.id, consoleSessions.userId))
    .where(and(eq(consoleSessions.id, session.sid), eq(users.id, session.id), isNull(consoleSessions.revokedAt), startedWithinLifetime));
  if (!row || row.user.disabledAt !== null) return null;
  if (row.user.passwordChangedAt && row.startedAt < row.user.passwordChangedAt) return null;
  return { id: row.user.id, email: row.user.email, role: row.user.role };
}
