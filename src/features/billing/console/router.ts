import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { settlePolicy } from "../settle";
import { billingOfPolicy, delinquencyRow, delinquencySearchInput, policyBilling, searchDelinquencies } from "./billing";

const byPolicy = z.object({ policyId: z.number().int().positive() });

/** The console's billing (docs/decisions.md, "Billing and delinquencies"): reading needs `policies.read`, settling `policies.manage` (audited). */
export const billingConsoleRouter = router({
  policy: staffProcedure("policies.read")
    .input(byPolicy)
    .output(policyBilling)
    .query(({ ctx, input }) => billingOfPolicy(ctx.db, input.policyId)),
  delinquencies: staffProcedure("policies.read")
    .input(delinquencySearchInput)
    .output(z.array(delinquencyRow))
    .query(({ ctx, input }) => searchDelinquencies(ctx.db, input)),
  settle: staffProcedure("policies.manage")
    .input(byPolicy)
    .output(
      z.object({
        policy_number: z.string(),
        delinquency_id: z.string().optional(),
        settled_cents: z.number().int().optional(),
        charge_id: z.string().optional(),
      }),
    )
    .mutation(({ ctx, input }) => settlePolicy(ctx.db, ctx.actor, input.policyId)),
});
