import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { ENDPOINT_STATUSES } from "../webhooks.table";
import { consoleEndpoint, endpointForConsole, setEndpointHeadersAsStaff, setEndpointStatusAsStaff } from "./endpoints";
import { deliveryOverview, deliveryOverviewOf } from "./overview";
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
import { bulkRetryFilter, bulkRetryProgress, bulkRetryView, countFailedDeliveries, recentBulkRetries, retryDeliveryAsStaff, viewOfBulkRetry } from "./retry";
import { consoleDeliveryDetail, consoleDeliveryPage, deliveryForConsole, deliverySearchInput, searchDeliveries } from "./search";
import { startBulkRetry } from "./webhook_delivery__bulk_retry";

const deliveryId = z.object({ id: z.string().trim().min(1).max(100) });
const endpointId = z.object({ id: z.string().trim().min(1).max(100) });

/**
 * The console's deliveries (docs/decisions.md, "Console: deliveries"; decisions §12): search, detail, retry one, bulk retry
 * with a dry-run count, and endpoint status and static headers. Reads for both roles; every change
 * for operators only, audited in its transaction by the domain function.
 */
export const webhooksConsoleRouter = router({
  deliveries: router({
    search: staffProcedure("deliveries.read")
      .input(deliverySearchInput)
      .output(consoleDeliveryPage)
      .query(({ ctx, input }) => searchDeliveries(ctx.db, input)),
    detail: staffProcedure("deliveries.read")
      .input(deliveryId)
      .output(consoleDeliveryDetail)
      .query(({ ctx, input }) => deliveryForConsole(ctx.db, input.id)),
    retry: staffProcedure("deliveries.retry")
      .input(deliveryId)
      .output(z.object({ id: z.string(), status: z.string(), attempt_number: z.number().int() }))
      .mutation(async ({ ctx, input }) => {
        const delivery = await retryDeliveryAsStaff(ctx.db, ctx.actor, input.id);
        return { id: delivery.id, status: delivery.status, attempt_number: delivery.attempt_number };
      }),
  }),
  bulkRetries: router({
    /** The dry run: how many failed deliveries a bulk retry of this filter would re-enqueue now. */
    count: staffProcedure("deliveries.read")
      .input(bulkRetryFilter)
      .output(z.object({ matched: z.number().int() }))
      .query(({ ctx, input }) => countFailedDeliveries(ctx.db, input)),
    start: staffProcedure("deliveries.bulk_retry")
      .input(bulkRetryFilter)
      .output(bulkRetryView)
      .mutation(async ({ ctx, input }) => viewOfBulkRetry(await startBulkRetry(ctx.db, ctx.actor, input))),
    progress: staffProcedure("deliveries.read")
      .input(z.object({ id: z.number().int().positive() }))
      .output(bulkRetryView)
      .query(({ ctx, input }) => bulkRetryProgress(ctx.db, input.id)),
    recent: staffProcedure("deliveries.read")
      .output(z.array(bulkRetryView))
      .query(({ ctx }) => recentBulkRetries(ctx.db)),
  }),
  endpoints: router({
    detail: staffProcedure("deliveries.read")
      .input(endpointId)
      .output(consoleEndpoint)
      .query(({ ctx, input }) => endpointForConsole(ctx.db, input.id)),
    setStatus: staffProcedure("endpoints.manage")
      .input(endpointId.extend({ status: z.enum(ENDPOINT_STATUSES) }))
      .output(consoleEndpoint)
      .mutation(({ ctx, input }) => setEndpointStatusAsStaff(ctx.db, ctx.actor, input.id, input.status)),
    setHeaders: staffProcedure("endpoints.manage")
      .input(
        endpointId.extend({
          set: z.record(z.string().max(200), z.string().max(5000)).default({}),
          unset: z.array(z.string().max(200)).max(50).default([]),
        }),
      )
      .output(consoleEndpoint)
      .mutation(({ ctx, input }) => setEndpointHeadersAsStaff(ctx.db, ctx.actor, input.id, { set: input.set, unset: input.unset })),
  }),
});

/** The console's landing page (decisions §12 Overview): read by both roles. */
export const overviewConsoleRouter = router({
  deliveries: staffProcedure("overview.read")
    .output(deliveryOverview)
    .query(({ ctx }) => deliveryOverviewOf(ctx.db)),
});

/** Provider subscriptions and their coverage (decisions §4 `provider create`, §12 Access). */
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
