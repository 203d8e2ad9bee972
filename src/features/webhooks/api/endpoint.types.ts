import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { EVENT_NAMES } from "../catalog";
import { MAX_ENDPOINTS_PER_SUBSCRIBER } from "../endpoints";
import { WEBHOOK_MESSAGES } from "../messages";
import { ENDPOINT_STATUSES } from "../webhooks.table";

const fields = {
  name: z.string().trim().min(1).max(255),
  destination_url: z.string().trim().min(1).max(2048).meta({ description: "HTTPS only", example: "https://hooks.example.com/pis" }),
  events: z
    .array(z.string().min(1).max(100))
    .max(50)
    .meta({ description: `Explicit event names, no wildcard: ${EVENT_NAMES.join(", ")}` }),
  status: z.enum(ENDPOINT_STATUSES).meta({ description: "Only active endpoints receive deliveries" }),
};

export const createBody = z.object({ endpoint: z.object({ name: fields.name, destination_url: fields.destination_url, events: fields.events }).strict() });
export const updateBody = z.object({
  endpoint: z
    .object({
      status: fields.status.optional(),
      name: fields.name.optional(),
      destination_url: fields.destination_url.optional(),
      events: fields.events.optional(),
    })
    .strict(),
});

export const endpointView = z
  .object({
    id: z.string(),
    name: z.string(),
    destination_url: z.string(),
    events: z.array(z.string()),
    status: z.enum(ENDPOINT_STATUSES),
    suspension_reason: z.string().nullable().meta({
      description:
        "Why the service suspended the endpoint on its own: none of its deliveries succeeded for ENDPOINT_AUTO_SUSPEND_DAYS (default 5) days while some were attempted. Null otherwise; setting the status (back to active) clears it.",
      example: null,
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });

export const endpointOutput = z.object({ status_code: z.number().int(), endpoint: endpointView });
export const endpointsOutput = z.object({ status_code: z.number().int(), endpoints: z.array(endpointView) });

const invalid = { kind: "fields" as const, error: WEBHOOK_MESSAGES.invalid };

export function endpointMeta(scope: "owner" | "provider", verb: "create" | "list" | "update" | "delete"): Meta {
  const base = scope === "owner" ? "/partners/{owner_slug}/webhooks/endpoints" : "/partners/providers/{provider}/webhooks/endpoints";
  const who = scope === "owner" ? "the owner's" : "the provider subscription's";
  const table = {
    create: { method: "POST" as const, path: base, summary: `Register a webhook endpoint (${scope})`, created: true, errors: [400, 401, 403, 404, 415, 422] },
    list: { method: "GET" as const, path: base, summary: `List ${who} webhook endpoints`, created: false, errors: [401, 403, 404] },
    update: {
      method: "PUT" as const,
      path: `${base}/{id}`,
      summary: `Update a webhook endpoint (${scope})`,
      created: false,
      errors: [400, 401, 403, 404, 415, 422],
    },
    delete: { method: "DELETE" as const, path: `${base}/{id}`, summary: `Remove a webhook endpoint (${scope})`, created: false, errors: [401, 403, 404] },
  }[verb];
  return {
    openapi: {
      method: table.method,
      path: table.path as `/${string}`,
      tags: ["Webhooks"],
      summary: table.summary,
      description:
        (scope === "owner"
          ? "Reaches only endpoints this client registered under this owner; an endpoint registered on a provider route, or by another partner of the owner, answers 404. An endpoint receives events about the client's own records (its prospects, its move-outs) and events about no partner's record."
          : "Provider subscription: one endpoint for every owner covered by the subscription. 404 until the service has provisioned the subscriber, and the same 404 for a subscription of another client; endpoints registered on owner routes answer 404 here.") +
        (verb === "list" || verb === "update"
          ? ' Health guard: an active endpoint none of whose deliveries succeeded for ENDPOINT_AUTO_SUSPEND_DAYS (default 5) days while some were attempted is suspended by the service, and its `suspension_reason` says so (null otherwise); no event is sent for it. Its deliveries wait, as under any suspension: `PUT` with `{"endpoint": {"status": "active"}}` clears the reason and sends them again, and the window starts again from then.'
          : "") +
        (verb === "create"
          ? ` At most ${MAX_ENDPOINTS_PER_SUBSCRIBER} endpoints ${scope === "owner" ? "per owner for each client" : "per provider subscription"} (removed ones do not count): 422 beyond.`
          : ""),
    },
    inputErrors: invalid,
    responses: { created: table.created, errors: table.errors },
  };
}
