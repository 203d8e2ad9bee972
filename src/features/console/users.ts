import { eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import type { ConsoleUser } from "../../server/trpc/context";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords";
import { users } from "./users.table";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A console user's email as stored: trimmed, lower case; BAD input names the field. */
export function staffEmailOf(value: string): string {
  const email = value.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw errors.invalid("Email must be an email address", "email");
  return email;
}

/** decisions §4 `user create` and the console's Users screen: one password policy (passwords.ts). */
export async function createUser(tx: Tx, input: { email: string; password: string; role: ConsoleUser["role"] }): Promise<{ user_id: number }> {
  const email = staffEmailOf(input.email);
  const problem = passwordProblem(input.password, email);
  if (problem) throw errors.invalid(problem, "password");
  const [user] = await tx
    .insert(users)
    .values({ email, passwordHash: await hashPassword(input.password), role: input.role })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!user) throw errors.conflict(`A console user with email ${email} already exists`);
  return { user_id: user.id };
}

/** The user for these credentials, or null; the same answer for an unknown email, a wrong password and a disabled user. */
export async function checkCredentials(tx: Tx, email: string, password: string): Promise<ConsoleUser | null> {
  const [user] = await tx.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) {
    await hashPassword(password); // same cost either way
    return null;
  }
  const valid = await verifyPassword(password, user.passwordHash);
  return valid && user.disabledAt === null ? { id: user.id, email: user.email, role: user.role } : null;
}

/**
 * The user a session names, as the database has them now, or null: a session outlives neither its
 * user's disabling nor a password reset after it signed in (`signedInAt`, ms). The role is read
 * here too, so a role change applies on the user's next request, not at their next sign-in.
 */
export async function activeSessionUser(tx: Tx, session: { id: number; signedInAt?: number }): Promise<ConsoleUser | null> {
  const [user] = await tx.select().from(users).where(eq(users.id, session.id));
  if (!user || user.disabledAt !== null) return null;
  if (user.passwordChangedAt && (session.signedInAt === undefined || session.signedInAt < user.passwordChangedAt.getTime())) return null;
  return { id: user.id, email: user.email, role: user.role };
}
