import { z } from "zod";
import { jsonBody } from "../../../server/http/json-body";
import { ownerProcedure, partnerProcedure } from "../../auth/procedures";
import { startEndpointRetry } from "../console/webhook_delivery__bulk_retry";
import { ownerSubscriber, providerSubscriber } from "../endpoints";
import { retryDeliveriesBody, retryDeliveriesMeta, retryDeliveriesOutput } from "./retry-deliveries.types";

export const retryOwnerDeliveries = ownerProcedure("webhooks:manage")
  .meta(retryDeliveriesMeta("owner"))
  .input(jsonBody(z.object({ owner_slug: z.string(), endpoint_id: z.string(), ...retryDeliveriesBody })))
  .output(retryDeliveriesOutput)
  .mutation(async ({ ctx, input }) => {
    const { matched } = await startEndpointRetry(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id), input.endpoint_id, input);
    ctx.rest.status = 202;
    return { status_code: 202, matched };
  });

export const retryProviderDeliveries = partnerProcedure("webhooks:manage")
  .meta(retryDeliveriesMeta("provider"))
  .input(jsonBody(z.object({ provider: z.string(), endpoint_id: z.string(), ...retryDeliveriesBody })))
  .output(retryDeliveriesOutput)
  .mutation(async ({ ctx, input }) => {
    const { matched } = await startEndpointRetry(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.endpoint_id, input);
    ctx.rest.status = 202;
    return { status_code: 202, matched };
  });
