import { tokenProcedure } from "../features/auth/api/token";
import { ingestEventProcedure } from "../features/ingestion/api/events";
import { moveOutsRestRouter } from "../features/move-outs/api/router";
import { ownersRestRouter } from "../features/owners/api/router";
import { portalRestRouter } from "../features/portal/api/router";
import { prospectsRestRouter } from "../features/prospects/api/router";
import { resetProcedure } from "../features/reset/api/reset";
import { rosterRestRouter } from "../features/roster/api/router";
import { webhooksRestRouter } from "../features/webhooks/api/router";
import { router } from "../server/trpc/init";
import { consoleRouter } from "./console-router";

/** The Partner API gateway, served under `{base_url}` = `/api` (decisions §2). */
export const partnerApiRouter = router({
  token: tokenProcedure("partner"),
  owners: ownersRestRouter,
  roster: rosterRestRouter,
  prospects: prospectsRestRouter,
  moveOuts: moveOutsRestRouter,
  reset: resetProcedure,
  webhooks: webhooksRestRouter,
  portal: portalRestRouter,
});

/** The event-ingestion gateway, served under `{event_base_url}` = `/ingest`; it has no docs. */
export const ingestApiRouter = router({
  token: tokenProcedure("ingestion"),
  events: ingestEventProcedure,
});

/** The one router: both gateways' REST procedures and the console's. */
export { consoleRouter };

export const appRouter = router({
  partner: partnerApiRouter,
  ingest: ingestApiRouter,
  console: consoleRouter,
});

export type AppRouter = typeof appRouter;
