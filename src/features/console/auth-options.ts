import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../../server/db/client";
import { rootSecrets } from "../../server/secrets";
import type { ConsoleUser } from "../../server/trpc/context";
import { activeSessionUser, checkCredentials } from "./users";

export { CONSOLE_AUTH_BASE_PATH } from "./constants";

let options: NextAuthOptions | undefined;

/** next-auth over the `users` table (decisions §1): credentials, JWT sessions of 12 hours. */
export function authOptions(): NextAuthOptions {
  options ??= {
    secret: rootSecrets().authSecret,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/console/signin", error: "/console/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const user = await checkCredentials(await getDb(), credentials.email, credentials.password);
          return user ? { id: String(user.id), email: user.email, role: user.role } : null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id);
          token.role = (user as unknown as { role: ConsoleUser["role"] }).role;
          // When this session signed in: a later password reset refuses it (users.ts activeSessionUser).
          token.signedInAt = Date.now();
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { id: token.uid, email: token.email, role: token.role, signedInAt: token.signedInAt } } as typeof session;
      },
    },
  };
  return options;
}

/**
 * The signed-in console user of the current request, or null. The session cookie only names the
 * user: whether they may still act, and with which role, is read from the `users` table on every
 * request (a disabled user's open session is refused on its next request; decisions: Console access).
 */
export async function currentUser(): Promise<ConsoleUser | null> {
  const session = await getServerSession(authOptions());
  return userOfSession(session?.user);
}

/** The user a session's claims name, checked against the database now (see `activeSessionUser`). */
export async function userOfSession(claims: unknown): Promise<ConsoleUser | null> {
  const user = claims as (Partial<ConsoleUser> & { signedInAt?: unknown }) | undefined;
  if (typeof user?.id !== "number") return null;
  const signedInAt = typeof user.signedInAt === "number" ? user.signedInAt : undefined;
  return activeSessionUser(await getDb(), { id: user.id, signedInAt });
}
