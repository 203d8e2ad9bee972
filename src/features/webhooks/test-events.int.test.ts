import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { decryptSecret } from "../../server/secrets";
import { grant, newClient, newOwner, unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { attemptDelivery } from "./deliver";
import { emitEvent } from "./emit";
import { exampleBody } from "./event-examples";
import { WEBHOOK_MESSAGES } from "./messages";
import { createProvider } from "./providers";
import { providers } from "./providers.table";
import { verifySignature, webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries } from "./webhooks.table";

const receiver = receiversOfThisFile();

type Sent = { status_code: number; delivery_id: string };
type List = { deliveries: Array<{ id: string; event: string; status: string; test: boolean }> };
type Detail = { delivery: { id: string; test: boolean; payload: string; request_headers: Record<string, string> | null; attempts: unknown[] } };

describe("test events on an owner's endpoint (decisions §16 Test events)", () => {
  it("sends a signed example delivery marked X-Webhook-Test, listed with test: true, retried with the header", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const endpoint = await partner.register(hook.url, ["policy.created", "prospect.ready"]);
    const { token } = partner;

    const sent = await call<Sent>("POST", `${partner.base}/${endpoint}/test`, { token, body: { event: "policy.created" } });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ status_code: 202, delivery_id: expect.stringMatching(/^wd_/) });
    const id = sent.body.delivery_id;
    await runDueJobs();

    // As a receiver would check it: signature over the raw bytes with the owner's secret, the
    // header, and the body's three keys with the event's example payload for this owner.
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    const secret = (await partner.secrets()).current;
    expect(verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], request.rawBody, secret)).toBe(true);
    expect(request.headers["x-webhook-test"]).toBe("true");
    expect(request.headers["x-webhook-event"]).toBe("policy.created");
    expect(request.headers["x-webhook-delivery"]).toBe(id);
    const body = JSON.parse(request.rawBody);
    expect(Object.keys(body).sort()).toEqual(["data", "event", "property_owner_slug"]);
    expect(body).toEqual(exampleBody("policy.created", partner.owner.slug));
    expect(body.data.insurance_policy).toMatchObject({ id: expect.stringMatching(/^policy_/), status: "upcoming", renewal_eligibility_status: "eligible" });

    // In the list and the detail, marked; a real delivery of the same endpoint is not.
    const deliveries = `${partner.base}/${endpoint}/deliveries`;
    const list = await call<List>("GET", deliveries, { token });
    expect(list.body.deliveries).toEqual([expect.objectContaining({ id, event: "policy.created", status: "delivered", test: true })]);
    const detail = await call<Detail>("GET", `${deliveries}/${id}`, { token });
    expect(detail.body.delivery).toMatchObject({ id, test: true, payload: request.rawBody });
    expect(detail.body.delivery.request_headers?.["X-Webhook-Test"]).toBe("true");

    // A retry (a replay of the delivered delivery) carries the header again, with a fresh signature.
    expect((await call("POST", `${deliveries}/${id}/retry`, { token })).status).toBe(200);
    await runDueJobs();
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1].headers["x-webhook-test"]).toBe("true");
    expect(hook.received[1].rawBody).toBe(request.rawBody);
    expect(
      verifySignature(hook.received[1].headers["x-webhook-signature"], hook.received[1].headers["x-webhook-timestamp"], hook.received[1].rawBody, secret),
    ).toBe(true);
  });

  it("carries the header on the scheduled retries of a failed attempt too", async () => {
    const partner = await webhookPartner();
    const hook = await receiver(500);
    const endpoint = await partner.register(hook.url, ["move_out.initiated"]);
    const sent = await call<Sent>("POST", `${partner.base}/${endpoint}/test`, { token: partner.token, body: { event: "move_out.initiated" } });
    await runDueJobs();
    const [row] = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.id, sent.body.delivery_id));
    expect(row).toMatchObject({ status: "retrying", test: true });
    hook.answer({ status: 200 });
    await attemptDelivery(sent.body.delivery_id, { now: () => new Date(Date.now() + 3_600_000) });
    expect(hook.received.map((r) => r.headers["x-webhook-test"])).toEqual(["true", "true"]);
  });

  it("a real event's delivery carries no X-Webhook-Test and lists test: false", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const endpoint = await partner.register(hook.url, ["prospect.ready"]);
    await emitEvent(await getDb(), { ownerId: partner.owner.id, ownerSlug: partner.owner.slug, event: "prospect.ready", data: { id: "tpp_1" } });
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].headers["x-webhook-test"]).toBeUndefined();
    const list = await call<List>("GET", `${partner.base}/${endpoint}/deliveries`, { token: partner.token });
    expect(list.body.deliveries.map((d) => d.test)).toEqual([false]);
  });

  it("a suspended endpoint's test delivery waits like any delivery and goes out when it is active again", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const endpoint = await partner.register(hook.url, ["prospect.ready"]);
    const { token } = partner;
    const setStatus = (status: string) => call("PUT", `${partner.base}/${endpoint}`, { token, body: { endpoint: { status } } });
    expect((await setStatus("suspended")).status).toBe(200);
    const sent = await call<Sent>("POST", `${partner.base}/${endpoint}/test`, { token, body: { event: "prospect.ready" } });
    expect(sent.status).toBe(202);
    await runDueJobs();
    expect(hook.received).toEqual([]);
    expect((await setStatus("active")).status).toBe(200);
    await runDueJobs();
    expect(hook.received.map((r) => [r.headers["x-webhook-delivery"], r.headers["x-webhook-test"]])).toEqual([[sent.body.delivery_id, "true"]]);
  });

  it("422 for an event outside the catalog or not subscribed; nothing is recorded", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const endpoint = await partner.register(hook.url, ["prospect.ready"]);
    const path = `${partner.base}/${endpoint}/test`;
    const { token } = partner;
    const unknown = await call("POST", path, { token, body: { event: "prospect.exploded" } });
    expect([unknown.status, unknown.body]).toEqual([
      422,
      { status_code: 422, error: WEBHOOK_MESSAGES.testEventInvalid, errors: { event: [WEBHOOK_MESSAGES.unknownEvent("prospect.exploded")] } },
    ]);
    const unsubscribed = await call("POST", path, { token, body: { event: "policy.created" } });
    expect([unsubscribed.status, unsubscribed.body]).toEqual([
      422,
      { status_code: 422, error: WEBHOOK_MESSAGES.testEventInvalid, errors: { event: [WEBHOOK_MESSAGES.notSubscribed("policy.created")] } },
    ]);
    for (const body of [{}, { event: 7 }, { event: "" }, { event: "prospect.ready", extra: true }, []]) {
      const answer = await call("POST", path, { token, body });
      expect([JSON.stringify(body), answer.status, (answer.body as { status_code?: number }).status_code]).toEqual([JSON.stringify(body), 422, 422]);
    }
    await runDueJobs();
    const rows = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    expect(rows).toEqual([]);
  });

  it("404 for another owner's endpoint, another partner's endpoint, a provider endpoint or an unknown id", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const endpoint = await partner.register(hook.url, ["prospect.ready"]);
    const body = { event: "prospect.ready" };
    const notFound = { status: 404, body: { status_code: 404, error: WEBHOOK_MESSAGES.endpointNotFound } };

    // Another owner of the same client: the endpoint is not under it.
    const otherOwner = await newOwner(partner.client);
    expect(await call("POST", `/api/partners/${otherOwner.slug}/webhooks/endpoints/${endpoint}/test`, { token: partner.token, body })).toMatchObject(notFound);
    // Another partner granted the same owner: not its endpoint.
    const other = await newClient();
    await grant(other, partner.owner.id);
    expect(await call("POST", `${partner.base}/${endpoint}/test`, { token: await other.token(), body })).toMatchObject(notFound);
    expect(await call("POST", `${partner.base}/we_unknown/test`, { token: partner.token, body })).toMatchObject(notFound);
    // A provider route does not reach an owner endpoint.
    const code = unique("prov");
    await createProvider(await getDb(), { code, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    expect(await call("POST", `/api/partners/providers/${code}/webhooks/endpoints/${endpoint}/test`, { token: partner.token, body })).toMatchObject(notFound);
    await runDueJobs();
    expect(hook.received).toEqual([]);
  });

  it("needs webhooks:manage and a granted owner, as the other endpoint routes", async () => {
    const partner = await webhookPartner();
    const endpoint = await partner.register("https://localhost:9/hook", ["prospect.ready"]);
    const path = `${partner.base}/${endpoint}/test`;
    const body = { event: "prospect.ready" };
    expect((await call("POST", path, { body })).status).toBe(401);
    expect(await call("POST", path, { token: await partner.client.token("prospects:read"), body })).toMatchObject({
      status: 403,
      body: { message: "Forbidden" },
    });
    expect((await call("POST", path, { token: await (await newClient()).token(), body })).status).toBe(403);
  });
});

describe("test events on a provider subscription's endpoint (decisions §16 Test events)", () => {
  it("sends the example for the first covered owner, signed with the subscription's secret; 404 across subscriptions", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const mine = unique("prov");
    const theirs = unique("prov");
    await createProvider(await getDb(), { code: mine, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    const stranger = await newClient();
    await createProvider(await getDb(), { code: theirs, clientId: stranger.clientId, ownerSlugs: [partner.owner.slug] });
    const register = async (code: string, token: string) =>
      (
        await call<{ endpoint: { id: string } }>("POST", `/api/partners/providers/${code}/webhooks/endpoints`, {
          token,
          body: { endpoint: { name: code, destination_url: hook.url, events: ["delinquency.created"] } },
        })
      ).body.endpoint.id;
    const endpoint = await register(mine, partner.token);
    const strangerToken = await stranger.token();
    const theirEndpoint = await register(theirs, strangerToken);
    const path = (code: string, id: string) => `/api/partners/providers/${code}/webhooks/endpoints/${id}/test`;

    const sent = await call<Sent>("POST", path(mine, endpoint), { token: partner.token, body: { event: "delinquency.created" } });
    expect(sent).toMatchObject({ status: 202, body: { status_code: 202 } });
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    const [provider] = await (await getDb()).select().from(providers).where(eq(providers.code, mine));
    const secret = decryptSecret(provider.signingSecretEncrypted);
    expect(verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], request.rawBody, secret)).toBe(true);
    expect(request.headers["x-webhook-test"]).toBe("true");
    expect(JSON.parse(request.rawBody)).toEqual(exampleBody("delinquency.created", partner.owner.slug));
    const list = await call<List>("GET", `/api/partners/providers/${mine}/webhooks/endpoints/${endpoint}/deliveries`, { token: partner.token });
    expect(list.body.deliveries).toEqual([expect.objectContaining({ id: sent.body.delivery_id, test: true, status: "delivered" })]);

    // Another partner's subscription and endpoint: 404 both ways; unsubscribed: 422.
    const notFound = { status: 404, body: { status_code: 404, error: WEBHOOK_MESSAGES.endpointNotFound } };
    expect(await call("POST", path(mine, theirEndpoint), { token: partner.token, body: { event: "delinquency.created" } })).toMatchObject(notFound);
    expect(await call("POST", path(theirs, endpoint), { token: partner.token, body: { event: "delinquency.created" } })).toMatchObject({
      status: 404,
      body: { status_code: 404, error: WEBHOOK_MESSAGES.providerNotFound },
    });
    expect((await call("POST", path(mine, endpoint), { token: partner.token, body: { event: "policy.created" } })).status).toBe(422);
    expect(
      (await call("POST", path(mine, endpoint), { token: await partner.client.token("prospects:read"), body: { event: "delinquency.created" } })).status,
    ).toBe(403);
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
  });

  it("422 while the subscription covers no owner", async () => {
    const client = await newClient();
    const code = unique("prov");
    await createProvider(await getDb(), { code, clientId: client.clientId });
    const token = await client.token();
    const created = await call<{ endpoint: { id: string } }>("POST", `/api/partners/providers/${code}/webhooks/endpoints`, {
      token,
      body: { endpoint: { name: code, destination_url: "https://localhost:9/hook", events: ["move_out.initiated"] } },
    });
    const answer = await call("POST", `/api/partners/providers/${code}/webhooks/endpoints/${created.body.endpoint.id}/test`, {
      token,
      body: { event: "move_out.initiated" },
    });
    expect([answer.status, answer.body]).toEqual([
      422,
      { status_code: 422, error: WEBHOOK_MESSAGES.testEventInvalid, errors: { event: [WEBHOOK_MESSAGES.noCoveredOwner] } },
    ]);
    const rows = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, created.body.endpoint.id));
    expect(rows).toEqual([]);
  });
});
