import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { createConsoleApiHandler } from "../../composition/console-api";
import { getDb } from "../../server/db/client";
import { appErrorOf, fieldMessagesOf } from "../../server/errors";
import { logger } from "../../server/log";
import type { ConsoleUser } from "../../server/trpc/context";
import { unique } from "../../test/factories";
import { auditLog } from "../audit/audit-log.table";
import { userOfSession } from "./auth-options";
import { startConsoleSession } from "./sessions";
import { checkCredentials, createUser } from "./users";
import { users } from "./users.table";

const PASSWORD = "correct horse battery";

async function as(user: ConsoleUser | null) {
  return consoleRouter.createCaller({ db: await getDb(), log: logger(), requestId: "test", user });
}

/** A real staff user in the database, and a console caller signed in as them. */
async function staffUser(role: ConsoleUser["role"]) {
  const email = `${unique(role)}@example.com`;
  const { user_id } = await createUser(await getDb(), { email, password: PASSWORD, role });
  const user: ConsoleUser = { id: user_id, email, role };
  return { user, api: await as(user) };
}

async function auditOf(id: number) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, String(id))))
    .orderBy(auditLog.id);
}

const fieldsOf = (error: unknown) => {
  const known = appErrorOf(error);
  return known && fieldMessagesOf(known);
};

/** A session of this user as sign-in starts it (sessions.ts): the claims the next-auth cookie carries. */
async function sessionOf(id: number) {
  return { id, sid: await startConsoleSession(await getDb(), id) };
}

/** The console's real tRPC endpoint, with the session claims the next-auth cookie would carry. */
async function meWithSession(claims: { id: number; sid?: string }) {
  const handler = createConsoleApiHandler(() => userOfSession(claims));
  return handler(new Request("http://localhost/console/api/trpc/me"));
}

describe("console users: who may manage them (decisions §12)", () => {
  it("operators only: an account manager is FORBIDDEN and an anonymous caller UNAUTHORIZED, changing nothing", async () => {
    const { user: target } = await staffUser("account_manager");
    const { api: manager } = await staffUser("account_manager");
    const anonymous = await as(null);
    for (const api of [manager, anonymous]) {
      const code = api === manager ? "FORBIDDEN" : "UNAUTHORIZED";
      await expect(api.users.list()).rejects.toMatchObject({ code });
      await expect(api.users.create({ email: `${unique("x")}@example.com`, password: PASSWORD, role: "operator" })).rejects.toMatchObject({ code });
      await expect(api.users.setRole({ id: target.id, role: "operator" })).rejects.toMatchObject({ code });
      await expect(api.users.setDisabled({ id: target.id, disabled: true })).rejects.toMatchObject({ code });
      await expect(api.users.resetPassword({ id: target.id, password: "another long password" })).rejects.toMatchObject({ code });
    }
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, target.id));
    expect([row.role, row.disabledAt, row.passwordChangedAt]).toEqual(["account_manager", null, null]);
    expect(await auditOf(target.id)).toEqual([]);
  });
});

describe("console users: create, role, disable, password (docs/decisions.md, Console: access, part B)", () => {
  it("creates a user who can sign in, listed, audited without the password", async () => {
    const { api } = await staffUser("operator");
    const email = `${unique("New.Manager")}@Example.com`;
    const created = await api.users.create({ email: ` ${email} `, password: PASSWORD, role: "account_manager" });
    expect(created).toEqual({
      id: expect.any(Number),
      email: email.toLowerCase(),
      role: "account_manager",
      created_at: expect.any(String),
      disabled: false,
      disabled_at: null,
      password_changed_at: null,
    });
    expect((await api.users.list()).find((row) => row.id === created.id)).toEqual(created);
    expect(await checkCredentials(await getDb(), email, PASSWORD)).toEqual({ id: created.id, email: email.toLowerCase(), role: "account_manager" });
    const [row] = await auditOf(created.id);
    expect(row).toMatchObject({ action: "user.created", before: null, after: { email: email.toLowerCase(), role: "account_manager", disabled: false } });
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(JSON.stringify(row)).not.toContain("scrypt");
  });

  it("refuses a bad email, a weak password and a taken email, naming the field, writing nothing", async () => {
    const { api } = await staffUser("operator");
    const email = `${unique("taken")}@example.com`;
    await api.users.create({ email, password: PASSWORD, role: "operator" });
    const cases: [Parameters<typeof api.users.create>[0], string][] = [
      [{ email: "not-an-email", password: PASSWORD, role: "operator" }, "email"],
      [{ email: `${unique("short")}@example.com`, password: "elevenchars", role: "operator" }, "password"],
      [{ email: "same.as.password@example.com", password: "Same.As.Password@example.com", role: "operator" }, "password"],
    ];
    const before = (await api.users.list()).length;
    for (const [input, field] of cases) {
      const failure = await api.users.create(input).catch((e) => e);
      expect(failure, field).toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
      expect(Object.keys(fieldsOf(failure) ?? {})).toEqual([field]);
    }
    expect(fieldsOf(await api.users.create(cases[1][0]).catch((e) => e))).toEqual({ password: ["Password must be at least 12 characters"] });
    await expect(api.users.create({ email: email.toUpperCase(), password: PASSWORD, role: "account_manager" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `A console user with email ${email} already exists`,
    });
    await expect(api.users.create({ email: "x@example.com", password: PASSWORD, role: "admin" as "operator" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await api.users.list()).length).toBe(before);
  });

  it("changes a role, audited, and the user's next request carries it", async () => {
    const { api } = await staffUser("operator");
    const { user } = await staffUser("account_manager");
    expect((await api.users.setRole({ id: user.id, role: "operator" })).role).toBe("operator");
    expect(await auditOf(user.id)).toMatchObject([{ action: "user.role_changed", before: { role: "account_manager" }, after: { role: "operator" } }]);
    const me = await meWithSession(await sessionOf(user.id));
    expect((await me.json()).result.data.role).toBe("operator");
    await expect(api.users.setRole({ id: 2_000_000_000, role: "operator" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a disabled user cannot sign in and their open session is refused on its next request; enabling restores both", async () => {
    const { api } = await staffUser("operator");
    const { user } = await staffUser("account_manager");
    const session = await sessionOf(user.id);
    expect((await meWithSession(session)).status).toBe(200);

    const disabled = await api.users.setDisabled({ id: user.id, disabled: true });
    expect(disabled).toMatchObject({ disabled: true, disabled_at: expect.any(String) });
    expect(await checkCredentials(await getDb(), user.email, PASSWORD)).toBeNull();
    const refused = await meWithSession(session);
    expect(refused.status).toBe(401);
    expect(JSON.stringify(await refused.json())).toContain("UNAUTHORIZED");

    await api.users.setDisabled({ id: user.id, disabled: false });
    expect((await meWithSession(session)).status).toBe(200);
    expect(await checkCredentials(await getDb(), user.email, PASSWORD)).toMatchObject({ id: user.id });
    expect((await auditOf(user.id)).map((row) => [row.action, row.before, row.after])).toEqual([
      ["user.disabled", { email: user.email, role: "account_manager", disabled: false }, { email: user.email, role: "account_manager", disabled: true }],
      ["user.enabled", { email: user.email, role: "account_manager", disabled: true }, { email: user.email, role: "account_manager", disabled: false }],
    ]);
  });

  it("resets a password: the old one stops working and sessions signed in before the reset are refused", async () => {
    const { api } = await staffUser("operator");
    const { user } = await staffUser("account_manager");
    const earlier = await sessionOf(user.id);
    const weak = await api.users.resetPassword({ id: user.id, password: "short" }).catch((e) => e);
    expect(fieldsOf(weak)).toEqual({ password: ["Password must be at least 12 characters"] });
    expect(await checkCredentials(await getDb(), user.email, PASSWORD)).not.toBeNull();

    const next = "a different long passphrase";
    const reset = await api.users.resetPassword({ id: user.id, password: next });
    expect(reset.password_changed_at).toEqual(expect.any(String));
    expect(await checkCredentials(await getDb(), user.email, PASSWORD)).toBeNull();
    expect(await checkCredentials(await getDb(), user.email, next)).toMatchObject({ id: user.id });
    expect((await meWithSession(earlier)).status).toBe(401);
    expect((await meWithSession({ id: user.id })).status).toBe(401);
    expect((await meWithSession(await sessionOf(user.id))).status).toBe(200);
    const rows = await auditOf(user.id);
    expect(rows.map((row) => row.action)).toEqual(["user.password_reset"]);
    expect(JSON.stringify(rows)).not.toContain(next);
    await expect(api.users.resetPassword({ id: 2_000_000_000, password: next })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("always keeps one active operator: the last cannot be demoted or disabled, and nobody disables themselves", async () => {
    // Every operator made by earlier tests of this file is disabled first: `a` starts as the only active one.
    await (await getDb()).update(users).set({ disabledAt: new Date() }).where(eq(users.role, "operator"));
    const { user: a, api } = await staffUser("operator");
    const demote = await api.users.setRole({ id: a.id, role: "account_manager" }).catch((e) => e);
    expect(demote).toMatchObject({ code: "CONFLICT", message: `${a.email} is the last active operator: make another operator first` });
    await expect(api.users.setDisabled({ id: a.id, disabled: true })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "You cannot disable your own account",
    });

    const { user: b, api: bApi } = await staffUser("operator");
    await expect(bApi.users.setDisabled({ id: a.id, disabled: true })).resolves.toMatchObject({ disabled: true });
    await expect(bApi.users.setRole({ id: b.id, role: "account_manager" })).rejects.toMatchObject({ code: "CONFLICT" });
    await bApi.users.setDisabled({ id: a.id, disabled: false });
    // With another active operator, demoting oneself is allowed.
    expect((await bApi.users.setRole({ id: b.id, role: "account_manager" })).role).toBe("account_manager");
    const [stillA] = await (await getDb()).select().from(users).where(eq(users.id, a.id));
    expect([stillA.role, stillA.disabledAt]).toEqual(["operator", null]);
  });
});
