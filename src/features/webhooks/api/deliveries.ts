import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { ownerProcedure } from "../../auth/procedures";
import { deliveryDetail, listDeliveries, retryDelivery } from "../deliveries";
import { findEndpoint } from "../endpoints";
import { DELIVERY_STATUSES } from "../tables";

const BASE = "/partners/{owner_slug}/webhooks/endpoints/{endpoint_id}/deliveries";
const meta = (method: "GET" | "POST", path: string, summary: string, description: string, errors: number[]): Meta => ({
  openapi: { method, path: path as `/${string}`, tags: ["Webhooks"], summary, description },
  inputErrors: { kind: "fields", error: "Request is invalid" },
  responses: { errors },
});

const delivery = z
  .object({
    id: z.string().meta({ description: "X-Webhook-Delivery; stable across retries" }),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt_number: z.number().int(),
    last_attempted_at: z.string().nullable(),
    next_retry_at: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    last_attempt_failure_reason: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

const scoped = z.object({ owner_slug: z.string(), endpoint_id: z.string() });

export const listDeliveriesProcedure = ownerProcedure("webhooks:manage")
  .meta(
    meta(
      "GET",
      BASE,
      "List deliveries of an endpoint",
      "Newest first. Optional `status` filter; pass `next_cursor` back as `cursor` for the next page.",
      [401, 403, 404, 422],
    ),
  )
  .input(
    scoped.extend({
      status: z.enum(DELIVERY_STATUSES).optional(),
      cursor: z.string().max(200).optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    }),
  )
  .output(z.object({ status_code: z.number().int(), deliveries: z.array(delivery), next_cursor: z.string().nullable() }))
  .query(async ({ ctx, input }) => {
    await findEndpoint(ctx.db, { ownerId: ctx.owner.id, clientId: ctx.client.id }, input.endpoint_id);
    return { status_code: 200, ...(await listDeliveries(ctx.db, input.endpoint_id, input)) };
  });

export const getDeliveryProcedure = ownerProcedure("webhooks:manage")
  .meta(
    meta(
      "GET",
      `${BASE}/{id}`,
      "Inspect a delivery",
      "The exact raw body sent (`payload`), the last request's headers and every attempt with its failure reason.",
      [401, 403, 404],
    ),
  )
  .input(scoped.extend({ id: z.string() }))
  .output(
    z.object({
      status_code: z.number().int(),
      delivery: delivery.extend({
        payload: z.string().meta({ description: "The exact raw body sent; verify signatures over these bytes" }),
        request_headers: z.record(z.string(), z.string()).nullable(),
        attempts: z.array(
          z.object({
            number: z.number().int(),
            started_at: z.string(),
            duration_ms: z.number().int(),
            response_status: z.number().int().nullable(),
            failure_reason: z.string().nullable(),
          }),
        ),
      }),
    }),
  )
  .query(async ({ ctx, input }) => {
    await findEndpoint(ctx.db, { ownerId: ctx.owner.id, clientId: ctx.client.id }, input.endpoint_id);
    return { status_code: 200, delivery: await deliveryDetail(ctx.db, input.endpoint_id, input.id) };
  });

export const retryDeliveryProcedure = ownerProcedure("webhooks:manage")
  .meta(
    meta(
      "POST",
      `${BASE}/{id}/retry`,
      "Retry a delivery",
      "Re-enqueues a failed delivery with a fresh schedule, or replays a delivered one with the same delivery id. 409 while it is still scheduled.",
      [401, 403, 404, 409],
    ),
  )
  .input(scoped.extend({ id: z.string() }))
  .output(z.object({ status_code: z.number().int(), delivery }))
  .mutation(async ({ ctx, input }) =>
    ctx.db.transaction(async (tx) => {
      await findEndpoint(tx, { ownerId: ctx.owner.id, clientId: ctx.client.id }, input.endpoint_id);
      return { status_code: 200, delivery: await retryDelivery(tx, input.endpoint_id, input.id) };
    }),
  );
