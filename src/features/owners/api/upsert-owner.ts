import { jsonBody } from "../../../server/http/json-body";
import { partnerProcedure } from "../../auth/procedures";
import { ownerView, upsertOwner } from "../service";
import { upsertOwnerInput, upsertOwnerMeta, upsertOwnerOutput } from "./upsert-owner.types";

export const upsertOwnerProcedure = partnerProcedure("owners:write")
  .meta(upsertOwnerMeta)
  .input(jsonBody(upsertOwnerInput))
  .output(upsertOwnerOutput)
  .mutation(async ({ ctx, input }) => {
    const { owner, created } = await ctx.db.transaction((tx) => upsertOwner(tx, ctx.client.id, input));
    const status = created ? 201 : 200;
    ctx.rest.status = status;
    return { status_code: status, property_owner: ownerView(owner) };
  });
