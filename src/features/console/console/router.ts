import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { PERMISSIONS, permissionsOf } from "../permissions";
import { changeStaffRole, createStaffUser, listStaffUsers, resetStaffPassword, setStaffUserDisabled, staffUserRow } from "../staff-users";
import { staffPasswordResetInput, staffUserCreateInput, staffUserDisabledInput, staffUserRoleInput } from "../users.inputs";

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
    .input(staffUserCreateInput)
    .output(staffUserRow)
    .mutation(({ ctx, input }) => createStaffUser(ctx.db, ctx.actor, input)),
  setRole: staffProcedure("users.manage")
    .input(staffUserRoleInput)
    .output(staffUserRow)
    .mutation(({ ctx, input }) => changeStaffRole(ctx.db, ctx.actor, input.id, input.role)),
  setDisabled: staffProcedure("users.manage")
    .input(staffUserDisabledInput)
    .output(staffUserRow)
    .mutation(({ ctx, input }) => setStaffUserDisabled(ctx.db, ctx.actor, input.id, input.disabled)),
  resetPassword: staffProcedure("users.manage")
    .input(staffPasswordResetInput)
    .output(staffUserRow)
    .mutation(({ ctx, input }) => resetStaffPassword(ctx.db, ctx.actor, input.id, input.password)),
});
