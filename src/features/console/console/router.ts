import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { PASSWORD_MAX_LENGTH } from "../passwords";
import { PERMISSIONS, permissionsOf } from "../permissions";
import { changeStaffRole, createStaffUser, listStaffUsers, resetStaffPassword, setStaffUserDisabled, staffRole, staffUserRow } from "../staff-users";

const byId = z.object({ id: z.number().int().positive() });
// Bounded here only against abuse; the policy itself (and its message) is passwordProblem's.
const password = z.string().max(PASSWORD_MAX_LENGTH + 1);

/** The signed-in user and what the role may do (the console hides the rest). */
export const meConsoleProcedure = staffProcedure("overview.read")
  .output(
    z.object({
      email: z.string(),
      role: z.enum(["operator", "account_manager"]),
      permissions: z.array(z.enum(Object.keys(PERMISSIONS) as [keyof typeof PERMISSIONS])),
    }),
  )
  .query(({ ctx }) => ({ email: ctx.user.email, role: ctx.user.role, permissions: permissionsOf(ctx.user.role) }));

/** The console's Users screen: operators only (decisions §12; `users.manage`). */
export const usersConsoleRouter = router({
  list: staffProcedure("users.manage")
    .output(z.array(staffUserRow))
    .query(({ ctx }) => listStaffUsers(ctx.db)),
  create: staffProcedure("users.manage")
    .input(z.object({ email: z.string().max(300), password, role: staffRole }))
    .output(staffUserRow)
    .mutation(({ ctx, input }) => createStaffUser(ctx.db, ctx.actor, input)),
  setRole: staffProcedure("users.manage")
    .input(byId.extend({ role: staffRole }))
    .output(staffUserRow)
    .mutation(({ ctx, input }) => changeStaffRole(ctx.db, ctx.actor, input.id, input.role)),
  setDisabled: staffProcedure("users.manage")
    .input(byId.extend({ disabled: z.boolean() }))
    .output(staffUserRow)
    .mutation(({ ctx, input }) => setStaffUserDisabled(ctx.db, ctx.actor, input.id, input.disabled)),
  resetPassword: staffProcedure("users.manage")
    .input(byId.extend({ password }))
    .output(staffUserRow)
    .mutation(({ ctx, input }) => resetStaffPassword(ctx.db, ctx.actor, input.id, input.password)),
});
