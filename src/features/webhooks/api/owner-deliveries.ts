import { z } from "zod";
import { ownerProcedure } from "../../auth/procedures";
import { deliveryDetail, listDeliveries, retryDelivery } from "../deliveries";
import { ownerSubscriber } from "../endpoints";
import { deliveryMeta, detailOutput, listOutput, listQuery, retryOutput } from "./deliveries.types";

const scoped = z.object({ owner_slug: z.string(), endpoint_id: z.string() });

export const listOwnerDeliveries = ownerProcedure("webhooks:manage")
  .meta(deliveryMeta("owner", "list"))
  .input(scoped.extend(listQuery))
  .output(listOutput)
  .query(async ({ ctx, input }) => ({
    status_code: 200,
    ...(await listDeliveries(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id), input.endpoint_id, input)),
  }));

export const getOwnerDelivery = ownerProcedure("webhooks:manage")
  .meta(deliveryMeta("owner", "get"))
  .input(scoped.extend({ id: z.string() }))
  .output(detailOutput)
  .query(async ({ ctx, input }) => ({
    status_code: 200,
    delivery: await deliveryDetail(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id), input.endpoint_id, input.id),
  }));

export const retryOwnerDelivery = ownerProcedure("webhooks:manage")
  .meta(deliveryMeta("owner", "retry"))
  .input(scoped.extend({ id: z.string() }))
  .output(retryOutput)
  .mutation(async ({ ctx, input }) => ({
    status_code: 200,
    delivery: await retryDelivery(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id), input.endpoint_id, input.id),
  }));
