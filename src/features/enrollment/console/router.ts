import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { addFrameOriginByStaff, frameOriginRow, listFrameOrigins, removeFrameOrigin } from "./frame-origins";
import { frameOriginAddInput, frameOriginRemoveInput } from "./frame-origins.inputs";

/** The operator's frame origins (decisions §10 Framing, §12 Access). */
export const frameOriginsConsoleRouter = router({
  list: staffProcedure("access.read")
    .output(z.array(frameOriginRow))
    .query(({ ctx }) => listFrameOrigins(ctx.db)),
  add: staffProcedure("access.manage")
    .input(frameOriginAddInput)
    .output(frameOriginRow)
    .mutation(({ ctx, input }) => addFrameOriginByStaff(ctx.db, ctx.actor, input.origin)),
  remove: staffProcedure("access.manage")
    .input(frameOriginRemoveInput)
    .output(z.object({ removed: frameOriginRow }))
    .mutation(({ ctx, input }) => removeFrameOrigin(ctx.db, ctx.actor, input.id)),
});
