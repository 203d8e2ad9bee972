import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { createProvider } from "./providers";
import { webhookPartner } from "./webhook-test-helpers";

const receiver = receiversOfThisFile();

type List = { status_code: number; deliveries: Array<{ id: string; status: string; attempt_number: number }>; next_cursor: string | null };
type Detail = { status_code: number; delivery: { id: string; status: string; payload: string; attempts: unknown[] } };

describe("provider delivery routes (decisions §7 under the provider path)", () => {
  it("list, inspect and retry the deliveries of the subscription's endpoints, in the owner routes' shapes", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const mine = unique("prov");
    const theirs = unique("prov");
    await createProvider(await getDb(), { code: mine, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    await createProvider(await getDb(), { code: theirs, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    const register = async (code: string) => {
      const created = await call<{ endpoint: { id: string } }>("POST", `/api/partners/providers/${code}/webhooks/endpoints`, {
        token: partner.token,
        body: { endpoint: { name: code, destination_url: hook.url, events: ["prospect.ready"] } },
      });
      return created.body.endpoint.id;
    };
    const endpoint = await register(mine);
    const otherEndpoint = await register(theirs);
    for (const id of ["one", "two", "three"])
      await emitEvent(await getDb(), { ownerId: partner.owner.id, ownerSlug: partner.owner.slug, event: "prospect.ready", data: { id } });
    await runDueJobs();
    const { token } = partner;
    const path = `/api/partners/providers/${mine}/webhooks/endpoints/${endpoint}/deliveries`;

    const page1 = await call<List>("GET", `${path}?limit=2`, { token });
    expect(page1.status).toBe(200);
    expect(page1.body.deliveries).toHaveLength(2);
    expect(page1.body.deliveries[0]).toEqual({
      id: expect.stringMatching(/^wd_/),
      event: "prospect.ready",
      status: "delivered",
      attempt_number: 1,
      last_attempted_at: expect.any(String),
      next_retry_at: null,
      duration_ms: expect.any(Number),
      last_attempt_failure_reason: null,
      test: false,
      created_at: expect.any(String),
    });
    const page2 = await call<List>("GET", `${path}?limit=2&cursor=${page1.body.next_cursor}`, { token });
    expect(page2.body).toMatchObject({ status_code: 200, next_cursor: null });
    expect(page2.body.deliveries).toHaveLength(1);
    expect((await call<List>("GET", `${path}?status=failed`, { token })).body.deliveries).toEqual([]);
    expect((await call("GET", `${path}?status=lost`, { token })).status).toBe(422);

    const target = page1.body.deliveries[0].id;
    const detail = await call<Detail>("GET", `${path}/${target}`, { token });
    expect(detail.body.delivery.payload).toBe(hook.received.find((r) => r.headers["x-webhook-delivery"] === target)?.rawBody);
    expect(detail.body.delivery.attempts).toHaveLength(1);

    expect((await call("POST", `${path}/${target}/retry`, { token })).body).toMatchObject({ status_code: 200, delivery: { id: target, status: "pending" } });
    expect((await call("POST", `${path}/${target}/retry`, { token })).status).toBe(409);
    await runDueJobs();
    expect(hook.received.filter((r) => r.headers["x-webhook-delivery"] === target)).toHaveLength(2);

    // Another subscription's endpoint, an owner route, or a delivery of another endpoint: 404.
    const notFound = { status_code: 404, error: WEBHOOK_MESSAGES.endpointNotFound };
    const otherPath = `/api/partners/providers/${mine}/webhooks/endpoints/${otherEndpoint}/deliveries`;
    for (const [method, url] of [
      ["GET", otherPath],
      ["GET", `${otherPath}/${target}`],
      ["POST", `${otherPath}/${target}/retry`],
      ["GET", `/api/partners/${partner.owner.slug}/webhooks/endpoints/${endpoint}/deliveries`],
    ] as const) {
      const answer = await call(method, url, { token });
      expect([url, answer.status, answer.body]).toEqual([url, 404, notFound]);
    }
    const theirDeliveries = (await call<List>("GET", `/api/partners/providers/${theirs}/webhooks/endpoints/${otherEndpoint}/deliveries`, { token })).body;
    const foreign = await call("GET", `${path}/${theirDeliveries.deliveries[0].id}`, { token });
    expect([foreign.status, foreign.body]).toEqual([404, { status_code: 404, error: WEBHOOK_MESSAGES.deliveryNotFound }]);
  });

  it("answers 404 until the subscription is provisioned", async () => {
    const { token } = await webhookPartner();
    const code = unique("later");
    const base = `/api/partners/providers/${code}/webhooks/endpoints/we_x/deliveries`;
    const notProvisioned = { status_code: 404, error: WEBHOOK_MESSAGES.providerNotFound };
    for (const [method, url] of [
      ["GET", base],
      ["GET", `${base}/wd_x`],
      ["POST", `${base}/wd_x/retry`],
    ] as const) {
      const answer = await call(method, url, { token });
      expect([url, answer.status, answer.body]).toEqual([url, 404, notProvisioned]);
    }
  });

  it("needs a token with webhooks:manage", async () => {
    const { client } = await webhookPartner();
    const code = unique("scoped");
    await createProvider(await getDb(), { code, clientId: client.clientId });
    const path = `/api/partners/providers/${code}/webhooks/endpoints/we_x/deliveries`;
    expect((await call("GET", path, {})).status).toBe(401);
    expect((await call("GET", path, { token: await client.token("prospects:read") })).status).toBe(403);
  });
});
