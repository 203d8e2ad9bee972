import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { consolePolicyDetail, consolePolicyRow, policyForConsole, policySearchInput, searchPolicies } from "../console";
import { cancellationInput, cancelPolicy } from "../revisions/cancel";
import { revisePolicy, revisionInput } from "../revisions/revise";

const byId = z.object({ id: z.number().int().positive().max(2_147_483_647) });

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
    .input(byId.extend(revisionInput.shape))
    .output(consolePolicyDetail)
    .mutation(async ({ ctx, input: { id, ...revision } }) => {
      await ctx.db.transaction((tx) => revisePolicy(tx, ctx.actor, id, revision));
      return policyForConsole(ctx.db, id);
    }),
  cancel: staffProcedure("policies.manage")
    .input(byId.extend(cancellationInput.shape))
    .output(consolePolicyDetail)
    .mutation(async ({ ctx, input: { id, reason } }) => {
      await ctx.db.transaction((tx) => cancelPolicy(tx, ctx.actor, id, { reason }));
      return policyForConsole(ctx.db, id);
    }),
});
