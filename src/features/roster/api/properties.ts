import { jsonBody } from "../../../server/http/json-body";
import { ownerProcedure } from "../../auth/procedures";
import { collectionResponse } from "../collection";
import { lockOwnerRoster } from "../lock";
import { upsertProperties } from "../properties";
import { collectionInput } from "./collection.types";
import { propertiesMeta, propertiesOutput } from "./properties.types";

export const upsertPropertiesProcedure = ownerProcedure("onboarding:write")
  .meta(propertiesMeta)
  .input(jsonBody(collectionInput))
  .output(propertiesOutput)
  .mutation(async ({ ctx, input }) =>
    collectionResponse(
      await ctx.db.transaction(async (tx) => {
        await lockOwnerRoster(tx, ctx.owner.id);
        return upsertProperties(tx, ctx.owner, ctx.client.id, input.items);
      }),
    ),
  );
