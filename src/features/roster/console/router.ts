import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { correctAddress, setActiveByStaff } from "./actions";
import { buildingActiveInput, buildingAddressInput } from "./actions.inputs";
import { buildingDetail, buildingForConsole, buildingRow, buildingSearchInput, buildingShow, searchBuildings } from "./buildings";

const byId = z.object({ id: z.number().int().positive() });

/** The console's buildings screens (decisions §12 Buildings); the CLI calls the same functions. */
export const buildingsConsoleRouter = router({
  search: staffProcedure("buildings.read")
    .input(buildingSearchInput)
    .output(z.array(buildingRow))
    .query(({ ctx, input }) => searchBuildings(ctx.db, input)),
  detail: staffProcedure("buildings.read")
    .input(byId)
    .output(buildingDetail)
    .query(({ ctx, input }) => buildingForConsole(ctx.db, input.id)),
  correctAddress: staffProcedure("buildings.correct_address")
    .input(buildingAddressInput)
    .output(buildingShow)
    .mutation(({ ctx, input }) => correctAddress(ctx.db, ctx.actor, input.id, input.address)),
  setActive: staffProcedure("buildings.activate")
    .input(buildingActiveInput)
    .output(z.object({ active: z.boolean(), changed: z.boolean() }))
    .mutation(({ ctx, input }) => setActiveByStaff(ctx.db, ctx.actor, input.id, input.active)),
});
