import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { consoleProspectDetail, prospectForConsole } from "./detail";
import { consoleProspectRow, prospectSearchInput, searchProspects } from "./search";

/** The console's prospect screens (docs/decisions.md, "Console: UI kit, prospects, overview, audit"): read-only. */
export const prospectsConsoleRouter = router({
  search: staffProcedure("prospects.read")
    .input(prospectSearchInput)
    .output(z.array(consoleProspectRow))
    .query(({ ctx, input }) => searchProspects(ctx.db, input)),
  detail: staffProcedure("prospects.read")
    .input(z.object({ id: z.number().int().positive().max(2_147_483_647) }))
    .output(consoleProspectDetail)
    .query(({ ctx, input }) => prospectForConsole(ctx.db, input.id)),
});
