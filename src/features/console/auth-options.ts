import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../../server/db/client";
import { rootSecrets } from "../../server/secrets";
import type { ConsoleUser } from "../../server/trpc/context";
import { checkCredentials } from "./users";

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
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { id: token.uid, email: token.email, role: token.role } } as typeof session;
      },
    },
  };
  return options;
}

/** The signed-in console user of the current request, or null. */
export async function currentUser(): Promise<ConsoleUser | null> {
  const session = await getServerSession(authOptions());
  const user = session?.user as Partial<ConsoleUser> | undefined;
  if (!user?.id || !user.email || (user.role !== "operator" && user.role !== "account_manager")) return null;
  return { id: user.id, email: user.email, role: user.role };
}
