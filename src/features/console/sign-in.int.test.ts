import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../server/db/client";
import { ConsoleBrowser } from "../../test/console-browser";
import { unique } from "../../test/factories";
import { auditLog } from "../audit/audit-log.table";
import type { consoleAuthResponse } from "./auth-route";
import { SIGN_IN_THROTTLED } from "./constants";
import { consoleSignInFailures } from "./sessions.table";
import { createUser } from "./users";

/**
 * decisions §15: at most 5 failed console sign-ins per email and 20 per client address in 15
 * minutes; beyond that the sign-in is refused, the right password included, until the window has
 * passed; kept in PostgreSQL (every web process counts the same failures); each refusal audited.
 * Everything goes through the console's real next-auth route and tRPC endpoint.
 */

const PASSWORD = "correct horse battery";
const WRONG = "not the password at all";

async function staff() {
  const email = `${unique("staff")}@example.com`;
  await createUser(await getDb(), { email, password: PASSWORD, role: "operator" });
  return email;
}

let address = 0;
/** A browser from an address no other test uses. */
const browser = () => new ConsoleBrowser(`198.51.100.${++address}`);

/**
 * Failures already in the window, as the route stores them (one row per failed attempt; the first
 * test makes them through the route and counts its rows): each failure through the route costs a
 * scrypt verification (about a second on this machine), so tests whose point is the limit's edge
 * store the failures before it and make the last ones through the route. The tests' emails are
 * lower-case already, the key the route counts them under.
 */
async function storedFailures(email: string, clientAddress: string, count: number) {
  await (await getDb()).insert(consoleSignInFailures).values(Array.from({ length: count }, () => ({ email, clientAddress, scope: "console" as const })));
}

async function refusals(subject: string) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "console.sign_in_refused"), eq(auditLog.subjectId, subject)))
    .orderBy(auditLog.id);
}

describe("console sign-in throttling (decisions §15)", () => {
  it("refuses the right password after 5 failures for the email, says so, and audits the refusal", { timeout: 120_000 }, async () => {
    const email = await staff();
    const attacker = browser();
    for (let i = 0; i < 5; i++) expect(await attacker.signIn(email, WRONG)).toEqual({ status: 401, error: "CredentialsSignin" });
    // Each failure is one stored row, under the email as typed (lower-cased) and the address.
    const stored = await (await getDb()).select().from(consoleSignInFailures).where(eq(consoleSignInFailures.email, email));
    expect(stored.map((row) => [row.clientAddress, row.scope])).toEqual(Array.from({ length: 5 }, () => [attacker.address, "console"]));
    expect(await attacker.signIn(email, PASSWORD)).toEqual({ status: 401, error: SIGN_IN_THROTTLED });
    expect(attacker.hasSession).toBe(false);
    // The owner of the account, from another address, is refused as well until the window passes.
    const owner = browser();
    expect(await owner.signIn(` ${email.toUpperCase()} `, PASSWORD)).toEqual({ status: 401, error: SIGN_IN_THROTTLED });
    expect(owner.hasSession).toBe(false);
    expect((await owner.me()).status).toBe(401);

    const rows = await refusals(email);
    expect(rows.map((row) => [row.action, row.actorLabel, row.actorUserId, row.after])).toEqual([
      [
        "console.sign_in_refused",
        `anonymous:${attacker.address}`,
        null,
        { email, client_address: attacker.address, limit: "email", failures: 5, window_minutes: 15 },
      ],
      [
        "console.sign_in_refused",
        `anonymous:${owner.address}`,
        null,
        { email, client_address: owner.address, limit: "email", failures: 5, window_minutes: 15 },
      ],
    ]);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    expect(JSON.stringify(rows)).not.toContain(WRONG);
  });

  it("answers an unknown email exactly as a known one, before and after the limit", { timeout: 120_000 }, async () => {
    const known = await staff();
    const unknown = `${unique("nobody")}@example.com`;
    const answers: Record<string, { status: number; error: string | null }[]> = { known: [], unknown: [] };
    for (const [name, email] of [
      ["known", known],
      ["unknown", unknown],
    ] as const) {
      const guesser = browser();
      // Three earlier failures, then through the route: the fourth and fifth fail, the sixth is refused.
      await storedFailures(email, guesser.address, 3);
      for (let i = 0; i < 3; i++) answers[name].push(await guesser.signIn(email, WRONG));
    }
    expect(answers.unknown).toEqual(answers.known);
    expect(answers.known.map((answer) => answer.error)).toEqual(["CredentialsSignin", "CredentialsSignin", SIGN_IN_THROTTLED]);
    expect(await refusals(unknown)).toHaveLength(1);
  });

  it("refuses a client address after 20 failures across emails, other addresses unaffected", { timeout: 180_000 }, async () => {
    const emails = await Promise.all([staff(), staff(), staff(), staff(), staff()]);
    const spray = browser();
    // Four wrong passwords for each of five emails: no email reaches its own limit. The first four
    // emails' are stored; the last email's go through the route, the 17th to 20th failures.
    for (const email of emails.slice(0, 4)) await storedFailures(email, spray.address, 4);
    for (let i = 0; i < 4; i++) expect((await spray.signIn(emails[4], WRONG)).error).toBe("CredentialsSignin");
    const victim = await staff();
    expect(await spray.signIn(victim, PASSWORD)).toEqual({ status: 401, error: SIGN_IN_THROTTLED });
    expect(spray.hasSession).toBe(false);
    const [row] = await refusals(victim);
    expect(row.after).toMatchObject({ client_address: spray.address, limit: "client_address", failures: 20 });

    const elsewhere = browser();
    expect(await elsewhere.signIn(emails[0], PASSWORD)).toEqual({ status: 200, error: null });
    expect(await elsewhere.me()).toEqual({ status: 200, email: emails[0] });
  });

  it("holds across web processes: two module instances of the route share the count", { timeout: 120_000 }, async () => {
    vi.resetModules();
    const other = (await import("./auth-route")) as { consoleAuthResponse: typeof consoleAuthResponse };
    const otherDb = await import("../../server/db/client");
    afterAll(() => otherDb.closeDb());
    const email = await staff();
    const here = browser();
    const there = new ConsoleBrowser(here.address, other.consoleAuthResponse);
    for (let i = 0; i < 3; i++) expect((await here.signIn(email, WRONG)).error).toBe("CredentialsSignin");
    for (let i = 0; i < 2; i++) expect((await there.signIn(email, WRONG)).error).toBe("CredentialsSignin");
    expect(await there.signIn(email, PASSWORD)).toEqual({ status: 401, error: SIGN_IN_THROTTLED });
    expect(await here.signIn(email, PASSWORD)).toEqual({ status: 401, error: SIGN_IN_THROTTLED });
  });

  it("lets the right password in once the window has passed, and then forgets the email's failures", { timeout: 120_000 }, async () => {
    const email = await staff();
    const user = browser();
    await storedFailures(email, user.address, 4);
    expect((await user.signIn(email, WRONG)).error).toBe("CredentialsSignin");
    expect((await user.signIn(email, PASSWORD)).error).toBe(SIGN_IN_THROTTLED);
    // 15 minutes later (the stored failures moved back rather than waiting).
    await (await getDb())
      .update(consoleSignInFailures)
      .set({ at: sql`${consoleSignInFailures.at} - interval '15 minutes 1 second'` })
      .where(eq(consoleSignInFailures.email, email));
    expect(await user.signIn(email, PASSWORD)).toEqual({ status: 200, error: null });
    expect(await user.me()).toEqual({ status: 200, email });
    expect(await (await getDb()).select().from(consoleSignInFailures).where(eq(consoleSignInFailures.email, email))).toEqual([]);
    // The email's count starts again: four typos later, the right password still works.
    const again = browser();
    for (let i = 0; i < 4; i++) await again.signIn(email, WRONG);
    expect(await again.signIn(email, PASSWORD)).toEqual({ status: 200, error: null });
  });
});
