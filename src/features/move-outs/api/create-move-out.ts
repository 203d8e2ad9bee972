import { jsonBody } from "../../../server/http/json-body";
import { signedOwnerProcedure } from "../../auth/procedures";
import { createMoveOut, moveOutView } from "../service";
import { createMoveOutInput, createMoveOutMeta, moveOutOutput } from "./move-outs.types";

export const createMoveOutProcedure = signedOwnerProcedure("move_outs:write")
  .meta(createMoveOutMeta)
  .input(jsonBody(createMoveOutInput))
  .output(moveOutOutput)
  .mutation(async ({ ctx, input }) => {
    const { moveOut, created } = await ctx.db.transaction((tx) => createMoveOut(tx, ctx.owner, ctx.client.id, input));
    // spec Move-out rules 1: body status_code 201 on create, 200 on re-post; the HTTP status equals it.
    const status = created ? 201 : 200;
    ctx.rest.status = status;
    return { status_code: status, move_out: moveOutView(moveOut) };
  });
