import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { DELIVERY_STATUSES } from "../webhooks.table";

/**
 * The delivery inspection and retry routes' schemas and meta, shared by the owner routes and the
 * provider subscription's routes (decisions §7): one shape under both paths.
 */
export type DeliveryScope = "owner" | "provider";

const BASE: Record<DeliveryScope, string> = {
  owner: "/partners/{owner_slug}/webhooks/endpoints/{endpoint_id}/deliveries",
  provider: "/partners/providers/{provider}/webhooks/endpoints/{endpoint_id}/deliveries",
};

const REACH: Record<DeliveryScope, string> = {
  owner: "Reaches only endpoints registered under this owner.",
  provider:
    "Reaches only endpoints registered on this provider subscription; 404 until the service has provisioned the subscriber, and the same 404 for a subscription of another client.",
};

const OPERATIONS = {
  list: {
    method: "GET" as const,
    path: "",
    summary: "List deliveries of an endpoint",
    description:
      "Newest first, `limit` per page (default 50, at most 200). Optional filters: `status`, `since` (created at or after) and `until` (created before), ISO 8601 instants with an offset. Pass `next_cursor` back as `cursor` with the same filters for the next page (`null`: the last page); a walk sees every delivery that existed when it began exactly once, whatever is created meanwhile (new deliveries come first on a new walk). A cursor not given by a previous page: 422. Example: `GET …/deliveries?status=failed&since=2026-11-20T08:00:00Z&until=2026-11-20T14:00:00Z&limit=100`. While the endpoint is suspended or disabled, deliveries waiting for it keep their status and attempt count with `next_retry_at: null`.",
    errors: [401, 403, 404, 422],
  },
  get: {
    method: "GET" as const,
    path: "/{id}",
    summary: "Inspect a delivery",
    description: "The exact raw body sent (`payload`), the last request's headers and every attempt with its failure reason.",
    errors: [401, 403, 404],
  },
  retry: {
    method: "POST" as const,
    path: "/{id}/retry",
    summary: "Retry a delivery",
    description:
      "Re-enqueues a failed delivery with a fresh schedule, or replays a delivered one with the same delivery id. 409 while it is still scheduled. A delivered delivery is replayed at most once a minute: 429 with `Retry-After` (seconds) before then.",
    errors: [401, 403, 404, 409, 429],
  },
};

export function deliveryMeta(scope: DeliveryScope, operation: keyof typeof OPERATIONS): Meta {
  const op = OPERATIONS[operation];
  return {
    openapi: {
      method: op.method,
      path: `${BASE[scope]}${op.path}` as `/${string}`,
      tags: ["Webhooks"],
      summary: scope === "owner" ? op.summary : `${op.summary} (provider)`,
      description: `${op.description} ${REACH[scope]}`,
    },
    inputErrors: { kind: "fields", error: "Request is invalid" },
    responses: { errors: op.errors },
  };
}

export const deliveryView = z
  .object({
    id: z.string().meta({ description: "X-Webhook-Delivery; stable across retries" }),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt_number: z.number().int(),
    last_attempted_at: z.string().nullable(),
    next_retry_at: z.string().nullable().meta({ description: "When the next try is due; null when none is scheduled" }),
    duration_ms: z.number().int().nullable(),
    last_attempt_failure_reason: z.string().nullable(),
    test: z.boolean().meta({ description: "True for a test event sent through the endpoint's test route; its requests carry `X-Webhook-Test: true`" }),
    created_at: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

/**
 * An instant of a delivery window (decisions §16 Recovery): ISO 8601 with an offset (`Z` or
 * `+hh:mm`), years 0001 to 9999 (PostgreSQL refuses year 0), compared in PostgreSQL to the microsecond.
 */
export const instant = (description: string, example: string) =>
  z.iso
    .datetime({ offset: true })
    .refine((value) => !value.startsWith("0000-"), { message: "Invalid ISO datetime" })
    .meta({ description, example });

/** Query of the list route, beside the path parameters. */
export const listQuery = {
  status: z.enum(DELIVERY_STATUSES).optional(),
  since: instant("Only deliveries created at or after this instant (ISO 8601 with offset)", "2026-11-20T08:00:00Z").optional(),
  until: instant("Only deliveries created before this instant; later than `since`", "2026-11-20T14:00:00Z").optional(),
  cursor: z.string().max(200).optional().meta({ description: "`next_cursor` of the previous page, as given (opaque)" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
};

export const listOutput = z.object({ status_code: z.number().int(), deliveries: z.array(deliveryView), next_cursor: z.string().nullable() });

export const detailOutput = z.object({
  status_code: z.number().int(),
  delivery: deliveryView.extend({
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
});

export const retryOutput = z.object({ status_code: z.number().int(), delivery: deliveryView });
