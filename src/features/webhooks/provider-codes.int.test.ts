import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { createProvider } from "./providers";
import { webhookPartner } from "./webhook-test-helpers";

const receiver = receiversOfThisFile();

/** Every Partner API route that names a provider code, with a body where it takes one. */
function providerRoutes(code: string, endpointId: string, deliveryId: string) {
  const endpoints = `/api/partners/providers/${code}/webhooks/endpoints`;
  const deliveries = `${endpoints}/${endpointId}/deliveries`;
  const endpoint = { name: "Platform", destination_url: "https://localhost:9/platform", events: ["prospect.ready"] };
  return [
    ["GET", endpoints, undefined],
    ["POST", endpoints, { endpoint }],
    ["PUT", `${endpoints}/${endpointId}`, { endpoint: { status: "disabled" } }],
    ["DELETE", `${endpoints}/${endpointId}`, undefined],
    ["GET", deliveries, undefined],
    ["GET", `${deliveries}/${deliveryId}`, undefined],
    ["POST", `${deliveries}/${deliveryId}/retry`, undefined],
  ] as const;
}

describe("provider codes do not leak (docs/decisions.md, Hardening: limits)", () => {
  it("answers another partner's provider code exactly as an unknown code, on every provider route, and changes nothing", async () => {
    const owner = await webhookPartner();
    const hook = await receiver();
    const theirs = unique("prov");
    await createProvider(await getDb(), { code: theirs, clientId: owner.client.clientId, ownerSlugs: [owner.owner.slug] });
    const registered = await call<{ endpoint: { id: string } }>("POST", `/api/partners/providers/${theirs}/webhooks/endpoints`, {
      token: owner.token,
      body: { endpoint: { name: "Theirs", destination_url: hook.url, events: ["prospect.ready"] } },
    });
    expect(registered.status).toBe(201);
    const endpointId = registered.body.endpoint.id;
    await emitEvent(await getDb(), { ownerId: owner.owner.id, ownerSlug: owner.owner.slug, event: "prospect.ready", data: { id: "x" } });
    await runDueJobs();
    const listed = await call<{ deliveries: Array<{ id: string }> }>("GET", `/api/partners/providers/${theirs}/webhooks/endpoints/${endpointId}/deliveries`, {
      token: owner.token,
    });
    const deliveryId = listed.body.deliveries[0].id;

    // Another partner holding every scope of the gateway, its own provider subscription included.
    const stranger = await newClient();
    await createProvider(await getDb(), { code: unique("own"), clientId: stranger.clientId });
    const token = await stranger.token();
    const unknown = unique("none");
    const foreignRoutes = providerRoutes(theirs, endpointId, deliveryId);
    const unknownRoutes = providerRoutes(unknown, endpointId, deliveryId);
    for (const [index, [method, url, body]] of foreignRoutes.entries()) {
      const foreign = await call(method, url, { token, body });
      const [, unknownUrl, unknownBody] = unknownRoutes[index];
      const missing = await call(method, unknownUrl, { token, body: unknownBody });
      expect([method, url, foreign.status, foreign.text]).toEqual([method, url, 404, missing.text]);
      expect(missing.status).toBe(404);
      expect(JSON.parse(foreign.text)).toEqual({ status_code: 404, error: WEBHOOK_MESSAGES.providerNotFound });
      expect(foreign.headers.get("content-type")).toBe(missing.headers.get("content-type"));
    }

    // Nothing the stranger sent reached the subscription.
    const after = await call<{ endpoints: Array<{ id: string; status: string }> }>("GET", `/api/partners/providers/${theirs}/webhooks/endpoints`, {
      token: owner.token,
    });
    expect(after.body.endpoints).toEqual([expect.objectContaining({ id: endpointId, status: "active" })]);
    expect(hook.received).toHaveLength(1);
  });
});
