import { eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import type { ConsoleUser } from "../../server/trpc/context";
import { hashPassword, verifyPassword } from "./passwords";
import { users } from "./users.table";

export async function createUser(tx: Tx, input: { email: string; password: string; role: ConsoleUser["role"] }): Promise<{ user_id: number }> {
  if (input.password.length < 8) throw errors.invalid("Password must be at least 8 characters", "password");
  const [user] = await tx
    .insert(users)
    .values({ email: input.email.trim().toLowerCase(), passwordHash: await hashPassword(input.password), role: input.role })
    .returning({ id: users.id });
  return { user_id: user.id };
}

/** The user for these credentials, or null; the same answer for an unknown email and a wrong password. */
export async function checkCredentials(tx: Tx, email: string, password: string): Promise<ConsoleUser | null> {
  const [user] = await tx.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) {
    await hashPassword(password); // same cost either way
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? { id: user.id, email: user.email, role: user.role } : null;
}
