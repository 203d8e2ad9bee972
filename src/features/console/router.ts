import { desc } from "drizzle-orm";
import { z } from "zod";
import { router } from "../../server/trpc/init";
import { consoleProcedure } from "../auth/procedures";
import { ingestionEventRow, recentIngestionEvents } from "../ingestion/console";
import { propertyOwners } from "../owners/tables";
import { consolePolicyDetail, consolePolicyRow, policyForConsole, policySearchInput, searchPolicies } from "../policies/console";

const ownerRow = z.object({
  owner_slug: z.string(),
  external_org_id: z.string(),
  name: z.string(),
  managed: z.boolean(),
  purchase_flow_enabled: z.boolean(),
  max_coverage_amount_cents: z.number().int().nullable(),
  guarantor_coverage_capable: z.boolean(),
  created_at: z.string(),
});

/** Console procedures: no `openapi` meta, so they never appear on the REST surface (style §2). */
export const consoleRouter = router({
  ingestion: router({
    events: consoleProcedure()
      .input(z.object({ status: z.enum(["pending", "applied", "skipped", "rejected"]).optional() }))
      .output(z.array(ingestionEventRow))
      .query(({ ctx, input }) => recentIngestionEvents(ctx.db, input.status)),
  }),
  policies: router({
    search: consoleProcedure()
      .input(policySearchInput)
      .output(z.array(consolePolicyRow))
      .query(({ ctx, input }) => searchPolicies(ctx.db, input)),
    detail: consoleProcedure()
      .input(z.object({ id: z.number().int().positive() }))
      .output(consolePolicyDetail)
      .query(({ ctx, input }) => policyForConsole(ctx.db, input.id)),
  }),
  owners: router({
    list: consoleProcedure()
      .output(z.array(ownerRow))
      .query(async ({ ctx }) => {
        const rows = await ctx.db.select().from(propertyOwners).orderBy(desc(propertyOwners.createdAt)).limit(500);
        return rows.map((owner) => ({
          owner_slug: owner.slug,
          external_org_id: owner.externalOrgId,
          name: owner.name,
          managed: owner.managed,
          purchase_flow_enabled: owner.purchaseFlowEnabled,
          max_coverage_amount_cents: owner.maxCoverageAmountCents,
          guarantor_coverage_capable: owner.guarantorCoverageCapable,
          created_at: owner.createdAt.toISOString(),
        }));
      }),
  }),
});
