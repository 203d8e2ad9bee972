import { randomBytes, scryptSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { ConsoleBrowser } from "../../test/console-browser";
import { unique } from "../../test/factories";
import { checkCredentials, createUser } from "./users";
import { users } from "./users.table";

/**
 * Passwords are hashed at OWASP's current scrypt parameters (N=2^17, r=8, p=1), and a hash stored
 * with older parameters still verifies and is replaced at the user's next successful sign-in
 * (docs/decisions.md "Hardening: console").
 */

const PASSWORD = "correct horse battery";

/** A hash as the service stored them before: scrypt N=2^15, r=8, p=1. */
function legacyHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${2 ** 15}$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
}

async function storedHash(id: number): Promise<string> {
  const [row] = await (await getDb()).select({ hash: users.passwordHash }).from(users).where(eq(users.id, id));
  return row.hash;
}

describe("console password hashes at today's strength", () => {
  it("hashes a new user's password with N=2^17, r=8, p=1", async () => {
    const { user_id } = await createUser(await getDb(), { email: `${unique("new")}@example.com`, password: PASSWORD, role: "operator" });
    expect((await storedHash(user_id)).split("$").slice(0, 4)).toEqual(["scrypt", String(2 ** 17), "8", "1"]);
  });

  it("signs in a user with an older hash, upgrades the stored hash, which then still verifies", { timeout: 60_000 }, async () => {
    const email = `${unique("legacy")}@example.com`;
    const { user_id } = await createUser(await getDb(), { email, password: PASSWORD, role: "account_manager" });
    const legacy = legacyHash(PASSWORD);
    await (await getDb()).update(users).set({ passwordHash: legacy }).where(eq(users.id, user_id));

    // A wrong password changes nothing.
    expect((await new ConsoleBrowser("192.0.2.50").signIn(email, "a wrong password here")).error).toBe("CredentialsSignin");
    expect(await storedHash(user_id)).toBe(legacy);

    const browser = new ConsoleBrowser("192.0.2.51");
    expect(await browser.signIn(email, PASSWORD)).toEqual({ status: 200, error: null });
    const upgraded = await storedHash(user_id);
    expect(upgraded).not.toBe(legacy);
    expect(upgraded.split("$").slice(0, 4)).toEqual(["scrypt", String(2 ** 17), "8", "1"]);
    // Not a password change: the session just opened stays valid.
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, user_id));
    expect(row.passwordChangedAt).toBeNull();
    expect(await browser.me()).toEqual({ status: 200, email });

    // The new hash verifies the same password, and only it; a second sign-in leaves it as it is.
    expect(await checkCredentials(await getDb(), email, "a wrong password here")).toBeNull();
    expect(await new ConsoleBrowser("192.0.2.52").signIn(email, PASSWORD)).toEqual({ status: 200, error: null });
    expect(await storedHash(user_id)).toBe(upgraded);
  });
});
