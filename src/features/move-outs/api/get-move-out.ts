import { errors } from "../../../server/errors";
import { signedOwnerProcedure } from "../../auth/procedures";
import { MOVE_OUT_MESSAGES } from "../messages";
import { findMoveOut, moveOutView } from "../service";
import { getMoveOutInput, getMoveOutMeta, moveOutOutput } from "./move-outs.types";

export const getMoveOutProcedure = signedOwnerProcedure("move_outs:read")
  .meta(getMoveOutMeta)
  .input(getMoveOutInput)
  .output(moveOutOutput)
  .query(async ({ ctx, input }) => {
    const moveOut = await findMoveOut(ctx.db, ctx.owner.id, ctx.client.id, input.id);
    if (!moveOut) throw errors.notFound(MOVE_OUT_MESSAGES.notFound);
    return { status_code: 200, move_out: moveOutView(moveOut) };
  });
