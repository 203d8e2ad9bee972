import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { cancelPolicy } from "../revisions/cancel";
import { revisePolicy } from "../revisions/revise";
import { policyById as byId, policyCancelInput, policyReviseInput } from "./inputs";
import { consolePolicyDetail, consolePolicyRow, policyForConsole, policySearchInput, searchPolicies } from "./search";

/**
 * The console's policy screens (docs/decisions.md, "Policies: revisions and cancellation"; decisions §12 Prospects and policies): search and
 * detail for both roles, revise and cancel for operators (`policies.manage`), each mutation audited
 * in its transaction. Both answer the policy page as it is after the change.
 */
export const policiesConsoleRouter = router({
  search: staffProcedure("policies.read")
    .input(policySearchInput)
    .output(z.array(consolePolicyRow))
    .query(({ ctx, input }) => searchPolicies(ctx.db, input)),
  detail: staffProcedure("policies.read")
    .input(byId)
    .output(consolePolicyDetail)
    .query(({ ctx, input }) => policyForConsole(ctx.db, input.id)),
  revise: staffProcedure("policies.manage")
    .input(policyReviseInput)
    .output(consolePolicyDetail)
    .mutation(async ({ ctx, input: { id, ...revision } }) => {
      await ctx.db.transaction((tx) => revisePolicy(tx, ctx.actor, id, revision));
      return policyForConsole(ctx.db, id);
    }),
  cancel: staffProcedure("policies.manage")
    .input(policyCancelInput)
    .output(consolePolicyDetail)
    .mutation(async ({ ctx, input: { id, reason } }) => {
      await ctx.db.transaction((tx) => cancelPolicy(tx, ctx.actor, id, { reason }));
      return policyForConsole(ctx.db, id);
    }),
});
