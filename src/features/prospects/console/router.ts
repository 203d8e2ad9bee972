import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { consoleProspectDetail, prospectForConsole } from "./detail";
import { consoleProspectRow, prospectSearchInput, searchProspects } from "./search";
import { createSourceByStaff, listSources, sourceRow, updateSourceByStaff } from "./sources";
import { sourceCreateInput, sourceUpdateInput } from "./sources.inputs";

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

/** Sources (decisions §12 Access): flow, optional ingest fields, redirect domains. */
export const sourcesConsoleRouter = router({
  list: staffProcedure("access.read")
    .output(z.array(sourceRow))
    .query(({ ctx }) => listSources(ctx.db)),
  create: staffProcedure("access.manage")
    .input(sourceCreateInput)
    .output(sourceRow)
    .mutation(({ ctx, input }) => createSourceByStaff(ctx.db, ctx.actor, input)),
  update: staffProcedure("access.manage")
    .input(sourceUpdateInput)
    .output(sourceRow)
    .mutation(({ ctx, input }) => updateSourceByStaff(ctx.db, ctx.actor, input)),
});
