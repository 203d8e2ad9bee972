import { and, asc, eq, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { type AuditActor, recordAudit } from "../audit/audit";
import { hashPassword, passwordProblem } from "./passwords";
import { createUser } from "./users";
import { staffRole } from "./users.inputs";
import { type StaffUserRow, users } from "./users.table";

/**
 * The console's Users screen (docs/decisions.md, "Console: access, part B"): operators create staff users, change roles, disable
 * and enable them and reset passwords, each audited. Passwords never reach the audit log or a log.
 */

export type StaffRoleName = z.infer<typeof staffRole>;

export const staffUserRow = z.object({
  id: z.number().int(),
  email: z.string(),
  role: staffRole,
  created_at: z.string(),
  disabled: z.boolean(),
  disabled_at: z.string().nullable(),
  password_changed_at: z.string().nullable(),
});
export type StaffUserView = z.infer<typeof staffUserRow>;

function view(user: StaffUserRow): StaffUserView {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    created_at: user.createdAt.toISOString(),
    disabled: user.disabledAt !== null,
    disabled_at: user.disabledAt?.toISOString() ?? null,
    password_changed_at: user.passwordChangedAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of a user: never the password or its hash. */
const audited = (user: StaffUserRow) => ({ email: user.email, role: user.role, disabled: user.disabledAt !== null });

export async function listStaffUsers(db: Db): Promise<StaffUserView[]> {
  return (await db.select().from(users).orderBy(asc(users.email))).map(view);
}

export async function createStaffUser(db: Db, actor: AuditActor, input: { email: string; password: string; role: StaffRoleName }): Promise<StaffUserView> {
  return db.transaction(async (tx) => {
    const { user_id } = await createUser(tx, input);
    const user = await lockedUser(tx, user_id);
    await recordAudit(tx, actor, { action: "user.created", subject: { type: "user", id: user.id }, after: audited(user) });
    return view(user);
  });
}

async function lockedUser(tx: Tx, id: number): Promise<StaffUserRow> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for("update");
  if (!user) throw errors.notFound(`No console user ${id}`);
  return user;
}

/**
 * decisions (Console access): the console always keeps one active operator. A change that would
 * leave none is refused; the active operators' rows are locked first, so two operators demoting or
 * disabling each other at the same moment cannot both succeed.
 */
async function assertAnotherActiveOperator(tx: Tx, user: StaffUserRow): Promise<void> {
  if (user.role !== "operator" || user.disabledAt !== null) return;
  const others = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "operator"), isNull(users.disabledAt), ne(users.id, user.id)))
    .for("update");
  if (others.length === 0) throw errors.conflict(`${user.email} is the last active operator: make another operator first`);
}

export async function changeStaffRole(db: Db, actor: AuditActor, id: number, role: StaffRoleName): Promise<StaffUserView> {
  return db.transaction(async (tx) => {
    const before = await lockedUser(tx, id);
    if (before.role === role) return view(before);
    if (role !== "operator") await assertAnotherActiveOperator(tx, before);
    const [after] = await tx.update(users).set({ role }).where(eq(users.id, id)).returning();
    await recordAudit(tx, actor, { action: "user.role_changed", subject: { type: "user", id }, before: audited(before), after: audited(after) });
    return view(after);
  });
}

/** A disabled user cannot sign in, and their open sessions are refused on their next request (auth-options.ts). */
export async function setStaffUserDisabled(db: Db, actor: AuditActor, id: number, disabled: boolean): Promise<StaffUserView> {
  return db.transaction(async (tx) => {
    const before = await lockedUser(tx, id);
    if ((before.disabledAt !== null) === disabled) return view(before);
    if (disabled) {
      if ("user" in actor && actor.user.id === id) throw errors.conflict("You cannot disable your own account");
      await assertAnotherActiveOperator(tx, before);
    }
    const [after] = await tx
      .update(users)
      .set({ disabledAt: disabled ? new Date() : null })
      .where(eq(users.id, id))
      .returning();
    await recordAudit(tx, actor, {
      action: disabled ? "user.disabled" : "user.enabled",
      subject: { type: "user", id },
      before: audited(before),
      after: audited(after),
    });
    return view(after);
  });
}

/** A new password set by an operator; the user's sessions signed in before it are refused from now on. */
export async function resetStaffPassword(db: Db, actor: AuditActor, id: number, password: string): Promise<StaffUserView> {
  return db.transaction(async (tx) => {
    const before = await lockedUser(tx, id);
    const problem = passwordProblem(password, before.email);
    if (problem) throw errors.invalid(problem, "password");
    const [after] = await tx
      .update(users)
      .set({ passwordHash: await hashPassword(password), passwordChangedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    await recordAudit(tx, actor, {
      action: "user.password_reset",
      subject: { type: "user", id },
      before: audited(before),
      after: { ...audited(after), password_changed_at: after.passwordChangedAt?.toISOString() ?? null },
    });
    return view(after);
  });
}
