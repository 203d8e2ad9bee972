import { getConfig } from "../../../server/config";
import { errors } from "../../../server/errors";
import { ownerProcedure } from "../../auth/procedures";
import { resetRenter } from "../reset";
import { resetInput, resetMeta, resetOutput } from "./reset.types";

export const resetProcedure = ownerProcedure("residents:reset")
  .meta(resetMeta)
  .input(resetInput)
  .output(resetOutput)
  .mutation(async ({ ctx, input }) => {
    // spec Reset rule: staging only; production answers 404.
    if (getConfig().appEnv === "production") throw errors.notFound();
    const result = await ctx.db.transaction((tx) => resetRenter(tx, ctx.owner.id, ctx.client.id, input.email));
    return { status_code: 200 as const, ...result };
  });
