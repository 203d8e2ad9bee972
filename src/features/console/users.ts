import { and, eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import type { ConsoleUser } from "../../server/trpc/context";
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from "./passwords";
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

/**
 * The user for these credentials, or null; the same answer for an unknown email, a wrong password and
 * a disabled user. Sign-ins go through `signInWithPassword` (sign-in.ts), which throttles first.
 */
export async function checkCredentials(tx: Tx, email: string, password: string): Promise<ConsoleUser | null> {
  const [user] = await tx.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) {
    await hashPassword(password); // same cost either way
    return null;
  }
  const valid = await verifyPassword(password, user.passwordHash);
  if (!valid || user.disabledAt !== null) return null;
  if (needsRehash(user.passwordHash)) {
    // A hash made with older parameters is replaced now that the password is known (passwords.ts);
    // unless a reset changed it meanwhile. Not a password change: open sessions stay valid.
    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)));
  }
  return { id: user.id, email: user.email, role: user.role };
}
