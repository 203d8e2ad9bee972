import { auditConsoleRouter } from "../features/audit/console/router";
import { clientsConsoleRouter } from "../features/auth/console/router";
import { billingConsoleRouter } from "../features/billing/console/router";
import { meConsoleProcedure, usersConsoleRouter } from "../features/console/console/router";
import { frameOriginsConsoleRouter } from "../features/enrollment/console/router";
import { ingestionConsoleRouter } from "../features/ingestion/console/router";
import { messagesConsoleRouter } from "../features/messages/console/router";
import { buildingGrantsConsoleRouter, ownerMergeConsoleRouter, ownersConsoleRouter } from "../features/owners/console/router";
import { policiesConsoleRouter } from "../features/policies/console/router";
import { prospectsConsoleRouter, sourcesConsoleRouter } from "../features/prospects/console/router";
import { buildingsConsoleRouter } from "../features/roster/console/router";
import { overviewConsoleRouter, providersConsoleRouter, webhooksConsoleRouter } from "../features/webhooks/console/router";
import { router } from "../server/trpc/init";

/**
 * The console's procedures, served at `/console/api/trpc`: each feature's console router
 * (`src/features/<feature>/console/router.ts`, CONTRIBUTING.md "Where things go") under the key the
 * console's pages call. No `openapi` meta, so none appears on the REST surface (style §2).
 */
export const consoleRouter = router({
  me: meConsoleProcedure,
  webhooks: webhooksConsoleRouter,
  audit: auditConsoleRouter,
  buildings: buildingsConsoleRouter,
  ingestion: ingestionConsoleRouter,
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
  messages: messagesConsoleRouter,
});
