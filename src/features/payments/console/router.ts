import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { paymentsOfPolicy, policyPayments, unresolvedPayment, unresolvedPayments } from "./policy-payments";

/**
 * The console's payments (decisions §18; docs/decisions.md, "Refunds, disputes and reconciliation"):
 * a policy's payments, refunds and disputes on its page, and the payments still unresolved after an
 * hour. Reading only, with `policies.read`; refunds are made by canceling (`policies.cancel`).
 */
export const paymentsConsoleRouter = router({
  policy: staffProcedure("policies.read")
    .input(z.object({ policyId: z.number().int().positive() }))
    .output(policyPayments)
    .query(({ ctx, input }) => paymentsOfPolicy(ctx.db, input.policyId)),
  unresolved: staffProcedure("policies.read")
    .input(z.object({}).optional())
    .output(z.array(unresolvedPayment))
    .query(({ ctx }) => unresolvedPayments(ctx.db)),
});
