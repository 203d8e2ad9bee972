import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { ConsoleBrowser } from "../../test/console-browser";
import { unique } from "../../test/factories";
import { consoleSessions } from "./sessions.table";
import { createUser } from "./users";

/**
 * decisions §15: signing out revokes the session on the server (a copied cookie stops working), and
 * a session lives at most 12 h whatever its activity. Through the console's real next-auth route,
 * its tRPC endpoint and the pages' check (`consoleUserOf`).
 */

const PASSWORD = "correct horse battery";

let address = 0;
async function signedIn() {
  const email = `${unique("staff")}@example.com`;
  const { user_id } = await createUser(await getDb(), { email, password: PASSWORD, role: "account_manager" });
  const browser = new ConsoleBrowser(`192.0.2.${++address}`);
  expect(await browser.signIn(email, PASSWORD)).toEqual({ status: 200, error: null });
  return { email, userId: user_id, browser };
}

describe("console sessions end (decisions §15)", () => {
  it("sign-out revokes the session: a copy of the cookie is refused by the tRPC endpoint, the pages and next-auth", { timeout: 60_000 }, async () => {
    const { email, userId, browser } = await signedIn();
    const stolen = browser.copy("203.0.113.99");
    expect(await stolen.me()).toEqual({ status: 200, email });
    expect(await stolen.pageUser()).toMatchObject({ email });

    const signOut = await browser.signOut();
    expect(signOut.status).toBe(200);
    expect(browser.hasSession).toBe(false);

    expect((await stolen.me()).status).toBe(401);
    expect(await stolen.pageUser()).toBeNull();
    // next-auth's own session read neither answers the session nor renews the cookie: it clears it.
    expect(await stolen.session()).toEqual({});
    expect(stolen.hasSession).toBe(false);
    const [row] = await (await getDb()).select().from(consoleSessions).where(eq(consoleSessions.userId, userId));
    expect(row.revokedAt).toBeInstanceOf(Date);
  });

  it("signing out one session leaves the user's other sessions open", { timeout: 60_000 }, async () => {
    const { email, browser } = await signedIn();
    const laptop = new ConsoleBrowser("192.0.2.200");
    expect((await laptop.signIn(email, PASSWORD)).error).toBeNull();
    await browser.signOut();
    expect(await laptop.me()).toEqual({ status: 200, email });
  });

  it("a session older than 12 h is refused however active it has been, and is not renewed", { timeout: 60_000 }, async () => {
    const { email, userId, browser } = await signedIn();
    // Active all along: next-auth renews the cookie on each session read.
    expect(await browser.session()).toMatchObject({ user: { email } });
    expect(await browser.me()).toEqual({ status: 200, email });
    const db = await getDb();
    await db.update(consoleSessions).set({ startedAt: sql`now() - interval '11 hours 59 minutes'` }).where(eq(consoleSessions.userId, userId));
    expect(await browser.me()).toEqual({ status: 200, email });
    expect(await browser.session()).toMatchObject({ user: { email } });
    await db.update(consoleSessions).set({ startedAt: sql`now() - interval '12 hours 1 second'` }).where(eq(consoleSessions.userId, userId));
    expect((await browser.me()).status).toBe(401);
    expect(await browser.pageUser()).toBeNull();
    expect(await browser.session()).toEqual({});
    expect(browser.hasSession).toBe(false);
    // Signing in again starts a new session.
    expect((await browser.signIn(email, PASSWORD)).error).toBeNull();
    expect(await browser.me()).toEqual({ status: 200, email });
  });
});
