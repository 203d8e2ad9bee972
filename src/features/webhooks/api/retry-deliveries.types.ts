import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { BULK_RETRYABLE } from "../console/retry";
import { type DeliveryScope, instant } from "./deliveries.types";

/**
 * The self-serve recovery route (decisions §16 Recovery; docs/decisions.md "Partner developer:
 * self-serve recovery"): one shape under the owner's and the provider subscription's paths.
 */
const PATH: Record<DeliveryScope, `/${string}`> = {
  owner: "/partners/{owner_slug}/webhooks/endpoints/{endpoint_id}/deliveries/retry",
  provider: "/partners/providers/{provider}/webhooks/endpoints/{endpoint_id}/deliveries/retry",
};

export const retryDeliveriesBody = {
  status: z
    .enum(BULK_RETRYABLE)
    .meta({ description: "Which deliveries to re-enqueue: `failed` (attempts exhausted) or `retrying` (waiting for their next try)" }),
  since: instant("Deliveries created at or after this instant (ISO 8601 with offset), e.g. the start of an outage", "2026-11-20T08:00:00Z"),
  until: instant("Optional: only deliveries created before this instant; later than `since`", "2026-11-20T14:00:00Z").optional(),
};

export const retryDeliveriesOutput = z.object({
  status_code: z.number().int().meta({ example: 202 }),
  matched: z.number().int().meta({ description: "How many of the endpoint's deliveries matched and are being re-enqueued", example: 1342 }),
});

export function retryDeliveriesMeta(scope: DeliveryScope): Meta {
  return {
    openapi: {
      method: "POST",
      path: PATH[scope],
      tags: ["Webhooks"],
      summary: scope === "owner" ? "Retry an endpoint's deliveries since a time" : "Retry an endpoint's deliveries since a time (provider)",
      description: [
        "Self-serve recovery after an outage of your receiver: re-enqueues, as a background job, every delivery of this endpoint in `status` created at or after `since` (and before `until`, when given) up to this request.",
        "Each starts a fresh schedule of 25 attempts under its own delivery id, so your receiver's deduplication on `X-Webhook-Delivery` still holds. Answers 202 with `matched`, the exact count re-enqueued; follow them in the delivery list (`since`/`until` filters).",
        "One recovery per endpoint at a time: 409 while an earlier one is still queued or running. 422 for a bad instant, an unknown status or `until` not later than `since`.",
        scope === "owner"
          ? "Reaches only endpoints registered under this owner (another owner's endpoint: 404)."
          : "Reaches only endpoints registered on this provider subscription (404 otherwise).",
        'Example: `curl -X POST "$BASE/partners/acme/webhooks/endpoints/$ENDPOINT/deliveries/retry" -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d \'{"status":"failed","since":"2026-11-20T08:00:00Z","until":"2026-11-20T14:00:00Z"}\'` answers `{"status_code":202,"matched":1342}`.',
      ].join("\n\n"),
    },
    inputErrors: { kind: "fields", error: "Request is invalid" },
    responses: { accepted: true, errors: [400, 401, 403, 404, 409, 415, 422] },
  };
}
