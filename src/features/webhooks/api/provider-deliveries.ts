import { z } from "zod";
import { partnerProcedure } from "../../auth/procedures";
import { deliveryDetail, listDeliveries, retryDelivery } from "../deliveries";
import { providerSubscriber } from "../endpoints";
import { deliveryMeta, detailOutput, listOutput, listQuery, retryOutput } from "./deliveries.types";

const scoped = z.object({ provider: z.string(), endpoint_id: z.string() });

export const listProviderDeliveries = partnerProcedure("webhooks:manage")
  .meta(deliveryMeta("provider", "list"))
  .input(scoped.extend(listQuery))
  .output(listOutput)
  .query(async ({ ctx, input }) => ({
    status_code: 200,
    ...(await listDeliveries(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.endpoint_id, input)),
  }));

export const getProviderDelivery = partnerProcedure("webhooks:manage")
  .meta(deliveryMeta("provider", "get"))
  .input(scoped.extend({ id: z.string() }))
  .output(detailOutput)
  .query(async ({ ctx, input }) => ({
    status_code: 200,
    delivery: await deliveryDetail(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.endpoint_id, input.id),
  }));

export const retryProviderDelivery = partnerProcedure("webhooks:manage")
  .meta(deliveryMeta("provider", "retry"))
  .input(scoped.extend({ id: z.string() }))
  .output(retryOutput)
  .mutation(async ({ ctx, input }) => ({
    status_code: 200,
    delivery: await retryDelivery(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.endpoint_id, input.id),
  }));
