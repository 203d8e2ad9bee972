import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { EVENT_NAMES } from "../catalog";
import { exampleBody } from "../event-examples";
import { WEBHOOK_MESSAGES } from "../messages";
import { TEST_EVENTS_PER_MINUTE } from "../test-events";

/** decisions §16 Test events: one route under the owner's endpoints and one under a provider subscription's. */
export type TestEventScope = "owner" | "provider";

const PATH: Record<TestEventScope, string> = {
  owner: "/partners/{owner_slug}/webhooks/endpoints/{id}/test",
  provider: "/partners/providers/{provider}/webhooks/endpoints/{id}/test",
};

const REACH: Record<TestEventScope, string> = {
  owner:
    "Reaches only endpoints this client registered under this owner; an endpoint of a provider route or of another partner answers 404. The body's `property_owner_slug` is this owner's slug.",
  provider:
    "Reaches only endpoints registered on this provider subscription; 404 until the service has provisioned the subscriber, and the same 404 for a subscription of another client. The body's `property_owner_slug` is the first owner the subscription covers.",
};

export const testEventBody = z.object({
  event: z
    .string()
    .min(1)
    .max(100)
    .meta({ description: `A catalog event the endpoint subscribes to: ${EVENT_NAMES.join(", ")}`, example: "prospect.ready" }),
});

export const testEventOutput = z.object({
  status_code: z.number().int().meta({ example: 202 }),
  delivery_id: z.string().meta({
    description: "The test delivery's id (`X-Webhook-Delivery`); inspect and retry it as any delivery",
    example: "wd_5f0c2b7e9a1d4c3b8e6f0a2d4c6e8b1a",
  }),
});

export function testEventMeta(scope: TestEventScope): Meta {
  const example = JSON.stringify(exampleBody("move_out.initiated", "acme-residential"));
  return {
    openapi: {
      method: "POST",
      path: PATH[scope] as `/${string}`,
      tags: ["Webhooks"],
      summary: scope === "owner" ? "Send a test event to an endpoint" : "Send a test event to an endpoint (provider)",
      description:
        "Sends the endpoint one delivery of `event` with an example payload: the usual three keys (`event`, `property_owner_slug`, `data` keyed by the event's subject) filled with example values following the event's payload table. " +
        "It is signed like any delivery (`X-Webhook-Signature`, verified with the same secret) and carries `X-Webhook-Test: true` on every attempt, retries included, so a receiver can tell it from a real event. " +
        "Answers `202 {status_code, delivery_id}` at once; the delivery is attempted in the background, appears in the endpoint's delivery list with `test: true`, and can be inspected and retried like any other. " +
        `It waits like any delivery while the endpoint is suspended or disabled. 422 for an event outside the catalog or one the endpoint does not subscribe to. An endpoint takes at most ${TEST_EVENTS_PER_MINUTE} test events a minute: 429 with \`Retry-After\` (seconds) beyond. ` +
        `${REACH[scope]}\n\nExample: \`{"event": "move_out.initiated"}\` sends the body \`${example}\`; every catalog event has its example, built as the real events of its family are.`,
    },
    inputErrors: { kind: "fields", error: WEBHOOK_MESSAGES.testEventInvalid },
    responses: { accepted: true, errors: [401, 403, 404, 422, 429] },
  };
}
