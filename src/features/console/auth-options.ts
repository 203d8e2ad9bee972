import type { NextAuthOptions } from "next-auth";
import { getDb } from "../../server/db/client";
import { logger } from "../../server/log";
import { rootSecrets } from "../../server/secrets";
import type { ConsoleUser } from "../../server/trpc/context";
import { clientAddressOf } from "./client-address";
import { SESSION_ENDED, SIGN_IN_THROTTLED, SIGN_IN_UNAVAILABLE } from "./constants";
import { activeSessionUser, isConsoleSessionLive, revokeConsoleSession, startConsoleSession } from "./sessions";
import { signInWithPassword } from "./sign-in";

export { CONSOLE_AUTH_BASE_PATH } from "./constants";

/**
 * next-auth's credentials provider, loaded with the first console request rather than with every
 * process that imports the gateways (docs/decisions.md "Loading on first use"). The providers are
 * CommonJS with `exports.default`: a bundler (Next.js, vitest) hands the function as the default
 * export, Node's own ESM loader (scripts/serve.ts, where the door serves the console's tRPC
 * endpoint) the whole `module.exports`.
 */
async function credentialsProvider() {
  const { default: provider } = await import("next-auth/providers/credentials");
  return (provider as unknown as { default?: typeof provider }).default ?? provider;
}

let options: Promise<NextAuthOptions> | undefined;

/**
 * next-auth's protocol, not a domain error: the message of an error thrown from `authorize` or the
 * `jwt` callback is the code next-auth puts in the sign-in page's URL (`?error=…`), which the page
 * turns into its sentence. Domain code throws `AppError`s.
 */
class SignInPageCode extends Error {}

/**
 * next-auth over the `users` table (decisions §1): credentials, JWT sessions. The cookie's JWT names a
 * `console_sessions` row (`sid`): sign-out revokes it, and it ends 12 h after sign-in whatever the
 * activity (decisions §15, sessions.ts); the cookie's own 12 h age is the idle limit.
 */
export function authOptions(): Promise<NextAuthOptions> {
  options ??= credentialsProvider().then((CredentialsProvider) => ({
    secret: rootSecrets().authSecret,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/console/signin", error: "/console/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const { email, password } = (credentials ?? {}) as Record<string, unknown>;
          if (typeof email !== "string" || typeof password !== "string" || !email || !password) return null;
          const clientAddress = clientAddressOf(req?.headers);
          const outcome = await signInWithPassword(await getDb(), { email, password, clientAddress }).catch((error: unknown) => {
            // next-auth would put the message into the page's URL: log the cause, answer a plain code.
            logger().error({ err: error }, "console sign-in failed");
            throw new SignInPageCode(SIGN_IN_UNAVAILABLE);
          });
          // next-auth answers a thrown error with its message as the error code the sign-in page reads.
          if ("refused" in outcome && outcome.refused === "throttled") throw new SignInPageCode(SIGN_IN_THROTTLED);
          if ("refused" in outcome) return null;
          return { id: String(outcome.user.id), email: outcome.user.email, role: outcome.user.role };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id);
          token.role = (user as unknown as { role: ConsoleUser["role"] }).role;
          token.sid = await startConsoleSession(await getDb(), Number(user.id));
          return token;
        }
        // A signed-out or expired session is not renewed: next-auth clears its cookie.
        if (!(await isConsoleSessionLive(await getDb(), token.sid))) throw new SignInPageCode(SESSION_ENDED);
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { id: token.uid, email: token.email, role: token.role, sid: token.sid } } as typeof session;
      },
    },
    events: {
      async signOut({ token }) {
        await revokeConsoleSession(await getDb(), token?.sid);
      },
    },
    logger: {
      error(code, metadata) {
        // An ended session presented again is expected (a signed-out tab, a copied cookie), not a fault.
        const ended = code === "JWT_SESSION_ERROR" && metadata instanceof Error && metadata.message === SESSION_ENDED;
        if (ended) logger().info("console session ended: cookie refused");
        else logger().error({ code, err: metadata instanceof Error ? metadata : undefined }, "next-auth error");
      },
      warn(code) {
        logger().warn({ code }, "next-auth warning");
      },
      debug() {},
    },
  }));
  return options;
}

/**
 * The signed-in console user of a request (its headers: the session cookie), or null. The session
 * cookie only names the user and the session: whether they may still act, and with which role, is
 * read from the database on every request (`activeSessionUser`). The console's pages pass
 * `headers()`, its tRPC endpoint the request's own headers.
 */
export async function consoleUserOf(headers: Headers): Promise<ConsoleUser | null> {
  const req = { headers: Object.fromEntries(headers), cookies: cookiesOf(headers.get("cookie")) };
  const res = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };
  const { getServerSession } = await import("next-auth");
  const session = await getServerSession(req as never, res as never, await authOptions());
  return userOfSession(session?.user);
}

/** The user a session's claims name, checked against the database now (see `activeSessionUser`). */
export async function userOfSession(claims: unknown): Promise<ConsoleUser | null> {
  const user = claims as (Partial<ConsoleUser> & { sid?: unknown }) | undefined;
  if (typeof user?.id !== "number" || typeof user.sid !== "string") return null;
  return activeSessionUser(await getDb(), { id: user.id, sid: user.sid });
}

/** A `Cookie` header's pairs (the first of a repeated name wins, as browsers send the most specific first). */
export function cookiesOf(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at < 1) continue;
    const name = pair.slice(0, at).trim();
    if (name in cookies) continue;
    const raw = pair.slice(at + 1).trim();
    try {
      cookies[name] = decodeURIComponent(raw);
    } catch {
      cookies[name] = raw;
    }
  }
  return cookies;
}
