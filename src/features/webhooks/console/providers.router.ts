import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import {
  addProviderCoverage,
  createProviderByStaff,
  providerCoverageInput,
  providerCreateInput,
  providerRemoveCoverageInput,
  providerRow,
  providerSearchInput,
  removeProviderCoverage,
  searchProviders,
} from "./providers";

/** Provider subscriptions and their coverage (docs/decisions.md, "Console: access management, part A"; decisions §4 `provider create`, §12). */
export const providersConsoleRouter = router({
  search: staffProcedure("access.read")
    .input(providerSearchInput)
    .output(z.array(providerRow))
    .query(({ ctx, input }) => searchProviders(ctx.db, input)),
  create: staffProcedure("access.manage")
    .input(providerCreateInput)
    .output(providerRow)
    .mutation(({ ctx, input }) => createProviderByStaff(ctx.db, ctx.actor, input)),
  addCoverage: staffProcedure("access.manage")
    .input(providerCoverageInput)
    .output(providerRow)
    .mutation(({ ctx, input }) => addProviderCoverage(ctx.db, ctx.actor, input)),
  removeCoverage: staffProcedure("access.manage")
    .input(providerRemoveCoverageInput)
    .output(providerRow)
    .mutation(({ ctx, input }) => removeProviderCoverage(ctx.db, ctx.actor, input)),
});
