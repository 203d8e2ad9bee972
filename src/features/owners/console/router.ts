import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { revealOwnerSecret, rotateOwnerSecretByStaff, signingSecretAnswer } from "../../webhooks/console/signing-secret";
import { listOwnersForConsole, ownerDetail, ownerForConsole, ownerListInput, ownerRow } from "./detail";
import { ownerSettingsInput, updateOwnerSettings } from "./settings";

const bySlug = z.object({ slug: z.string().max(200) });

/** The console's owners screens (decisions §12 Owners, Access: signing secret reveal and rotation). */
export const ownersConsoleRouter = router({
  list: staffProcedure("owners.read")
    .input(ownerListInput)
    .output(z.array(ownerRow))
    .query(({ ctx, input }) => listOwnersForConsole(ctx.db, input?.query)),
  detail: staffProcedure("owners.read")
    .input(bySlug)
    .output(ownerDetail)
    .query(({ ctx, input }) => ownerForConsole(ctx.db, input.slug)),
  updateSettings: staffProcedure("owners.manage")
    .input(ownerSettingsInput)
    .output(ownerDetail)
    .mutation(async ({ ctx, input }) => {
      await updateOwnerSettings(ctx.db, ctx.actor, input);
      return ownerForConsole(ctx.db, input.slug);
    }),
  revealSecret: staffProcedure("secrets.manage")
    .input(bySlug)
    .output(signingSecretAnswer)
    .mutation(({ ctx, input }) => revealOwnerSecret(ctx.db, ctx.actor, input.slug)),
  rotateSecret: staffProcedure("secrets.manage")
    .input(bySlug)
    .output(signingSecretAnswer)
    .mutation(({ ctx, input }) => rotateOwnerSecretByStaff(ctx.db, ctx.actor, input.slug)),
});
