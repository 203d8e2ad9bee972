import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import {
  addBuildingGrant,
  buildingGrantInput,
  buildingGrantResult,
  buildingGrantRow,
  buildingGrantSearchInput,
  removeBuildingGrant,
  searchBuildingGrants,
} from "./building-grants";

/** Building grants of managed owners (docs/decisions.md, "Console: access management, part A"; decisions §4 `owner grant-building`, §12). */
export const buildingGrantsConsoleRouter = router({
  search: staffProcedure("access.read")
    .input(buildingGrantSearchInput)
    .output(z.array(buildingGrantRow))
    .query(({ ctx, input }) => searchBuildingGrants(ctx.db, input)),
  add: staffProcedure("access.manage")
    .input(buildingGrantInput)
    .output(buildingGrantResult)
    .mutation(({ ctx, input }) => addBuildingGrant(ctx.db, ctx.actor, input)),
  remove: staffProcedure("access.manage")
    .input(z.object({ id: z.number().int().positive() }))
    .output(buildingGrantResult)
    .mutation(({ ctx, input }) => removeBuildingGrant(ctx.db, ctx.actor, input.id)),
});
