import { z } from "zod";
import { router } from "../../server/trpc/init";
import { auditRow, auditSearchInput, searchAudit } from "../audit/audit";
import { clientsConsoleRouter } from "../auth/console/router";
import { staffProcedure } from "../auth/procedures";
import { billingConsoleRouter } from "../billing/console/router";
import { frameOriginsConsoleRouter } from "../enrollment/console/frame-origins";
import { ingestionEventRow, recentIngestionEvents } from "../ingestion/console";
import { buildingGrantsConsoleRouter } from "../owners/console/building-grants.router";
import { ownersConsoleRouter } from "../owners/console/router";
import { ownerMergeConsoleRouter } from "../owners/merge/console";
import { policiesConsoleRouter } from "../policies/console/router";
import { prospectsConsoleRouter } from "../prospects/console/router";
import { sourcesConsoleRouter } from "../prospects/console/sources";
import { buildingsConsoleRouter } from "../roster/console/router";
import { overviewConsoleRouter } from "../webhooks/console/overview-router";
import { providersConsoleRouter } from "../webhooks/console/providers.router";
import { webhooksConsoleRouter } from "../webhooks/console/router";
import { PERMISSIONS, permissionsOf } from "./permissions";
import { usersConsoleRouter } from "./users-router";

/** Console procedures: no `openapi` meta, so they never appear on the REST surface (style §2). */
export const consoleRouter = router({
  /** The signed-in user and what the role may do (the console hides the rest). */
  me: staffProcedure("overview.read")
    .output(
      z.object({
        email: z.string(),
        role: z.enum(["operator", "account_manager"]),
        permissions: z.array(z.enum(Object.keys(PERMISSIONS) as [keyof typeof PERMISSIONS])),
      }),
    )
    .query(({ ctx }) => ({ email: ctx.user.email, role: ctx.user.role, permissions: permissionsOf(ctx.user.role) })),
  webhooks: webhooksConsoleRouter,
  audit: router({
    search: staffProcedure("audit.read")
      .input(auditSearchInput)
      .output(z.array(auditRow))
      .query(({ ctx, input }) => searchAudit(ctx.db, input)),
  }),
  buildings: buildingsConsoleRouter,
  ingestion: router({
    events: staffProcedure("ingestion.read")
      .input(z.object({ status: z.enum(["pending", "applied", "skipped", "rejected"]).optional() }))
      .output(z.array(ingestionEventRow))
      .query(({ ctx, input }) => recentIngestionEvents(ctx.db, input.status)),
  }),
  overview: overviewConsoleRouter,
  prospects: prospectsConsoleRouter,
  policies: policiesConsoleRouter,
  ownerMerge: ownerMergeConsoleRouter,
  accessClients: clientsConsoleRouter,
  buildingGrants: buildingGrantsConsoleRouter,
  providers: providersConsoleRouter,
  owners: ownersConsoleRouter,
  sources: sourcesConsoleRouter,
  frameOrigins: frameOriginsConsoleRouter,
  users: usersConsoleRouter,
  billing: billingConsoleRouter,
});
