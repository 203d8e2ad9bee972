import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { logger } from "../../server/log";
import type { ConsoleUser } from "../../server/trpc/context";
import { recordAudit } from "../audit/audit";
import { consoleSignInFailures } from "./sessions.table";
import { checkCredentials } from "./users";

/**
 * Console sign-in with a password, throttled (decisions §15): at most 5 failures per email and 20 per
 * client address in 15 minutes; beyond that every sign-in of that email or from that address is
 * refused, the right password included, until the window has passed, and each refusal is an audit
 * row. The failures are rows in PostgreSQL, so every web process counts the same ones.
 */
export const SIGN_IN_WINDOW_MINUTES = 15;
export const SIGN_IN_FAILURES_PER_EMAIL = 5;
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
/** The longest email a sign-in is counted under (an email is at most 254 characters). */
const EMAIL_KEY_LENGTH = 254;

export type SignInOutcome = { user: ConsoleUser } | { refused: "credentials" } | { refused: "throttled" };

const inWindow = gt(consoleSignInFailures.at, sql`now() - make_interval(mins => ${SIGN_IN_WINDOW_MINUTES})`);

export async function signInWithPassword(db: Db, input: { email: string; password: string; clientAddress: string }): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase().slice(0, EMAIL_KEY_LENGTH);
  const attempt = await claimSignInAttempt(db, { scope: "console", email, clientAddress: input.clientAddress });
  // Refused before the password is looked at: a throttled guess costs no scrypt, and the answer is the
  // same whether the email belongs to a user or not.
  if (attempt === undefined) return { refused: "throttled" };
  const user = await checkCredentials(db, email, input.password);
  if (!user) return { refused: "credentials" };
  // The right password: this attempt and the email's earlier failures are forgotten (the address's stay).
  await db
    .delete(consoleSignInFailures)
    .where(or(eq(consoleSignInFailures.id, attempt), and(eq(consoleSignInFailures.email, email), eq(consoleSignInFailures.scope, "console"))));
  return { user };
}

export type SignInScope = "console" | "account";

/**
 * Counts the window's failures of this email and address and, under the limits, records this attempt
 * as a failure (removed again when its password is right), so sign-ins in flight at the same moment
 * count against each other; over a limit, writes the refusal's audit row instead. Both counters are
 * serialized by advisory locks (always the email's first) for the few milliseconds of the count.
 * The renter account (`scope` `account`) counts every link request the same way, in its own scope.
 * Answers the attempt's row id, or undefined when refused.
 */
export async function claimSignInAttempt(db: Db, input: { scope: SignInScope; email: string; clientAddress: string }): Promise<number | undefined> {
  const { scope, clientAddress } = input;
  const email = input.email.trim().toLowerCase().slice(0, EMAIL_KEY_LENGTH);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}-sign-in:email:${email}`}, 0))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}-sign-in:address:${clientAddress}`}, 0))`);
    const [counts] = await tx
      .select({
        email: sql<number>`count(*) filter (where ${eq(consoleSignInFailures.email, email)})::int`,
        address: sql<number>`count(*) filter (where ${eq(consoleSignInFailures.clientAddress, clientAddress)})::int`,
      })
      .from(consoleSignInFailures)
      .where(
        and(
          inWindow,
          eq(consoleSignInFailures.scope, scope),
          or(eq(consoleSignInFailures.email, email), eq(consoleSignInFailures.clientAddress, clientAddress)),
        ),
      );
    const limit = counts.email >= SIGN_IN_FAILURES_PER_EMAIL ? "email" : counts.address >= SIGN_IN_FAILURES_PER_ADDRESS ? "client_address" : undefined;
    if (limit) {
      await recordAudit(
        tx,
        { anonymous: clientAddress },
        {
          action: `${scope}.sign_in_refused`,
          subject: { type: `${scope}_sign_in`, id: email },
          after: {
            email,
            client_address: clientAddress,
            limit,
            failures: limit === "email" ? counts.email : counts.address,
            window_minutes: SIGN_IN_WINDOW_MINUTES,
          },
        },
      );
      logger().warn({ clientAddress, limit }, `${scope} sign-in refused: too many attempts`);
      return undefined;
    }
    // Failures older than the window count for nothing: each attempt removes them.
    await tx.delete(consoleSignInFailures).where(lt(consoleSignInFailures.at, sql`now() - make_interval(mins => ${SIGN_IN_WINDOW_MINUTES})`));
    const [row] = await tx.insert(consoleSignInFailures).values({ email, clientAddress, scope }).returning({ id: consoleSignInFailures.id });
    return row.id;
  });
}
