import { jsonBody } from "../../../server/http/json-body";
import { ownerProcedure } from "../../auth/procedures";
import { collectionResponse } from "../collection";
import { lockOwnerRoster } from "../lock";
import { upsertUnits } from "../units";
import { collectionInput } from "./collection.types";
import { unitsMeta, unitsOutput } from "./units.types";

export const upsertUnitsProcedure = ownerProcedure("onboarding:write")
  .meta(unitsMeta)
  .input(jsonBody(collectionInput))
  .output(unitsOutput)
  .mutation(async ({ ctx, input }) =>
    collectionResponse(
      await ctx.db.transaction(async (tx) => {
        await lockOwnerRoster(tx, ctx.owner.id);
        return upsertUnits(tx, ctx.owner.id, input.items);
      }),
    ),
  );
