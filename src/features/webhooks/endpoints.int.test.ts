import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { WEBHOOK_MESSAGES } from "./messages";
import { createProvider } from "./providers";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookEndpoints } from "./webhooks.table";

afterEach(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS = "1";
  resetConfig();
});

describe("webhook endpoints, owner routes (spec Webhook endpoint, decisions §7)", () => {
  it("registers, lists, updates and removes an endpoint", async () => {
    const { base, token } = await webhookPartner();
    const created = await call<{ status_code: number; endpoint: Record<string, unknown> & { id: string } }>("POST", base, {
      token,
      body: { endpoint: { name: "Main", destination_url: "https://localhost:9/hook", events: ["prospect.ready", "move_out.initiated"] } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      status_code: 201,
      endpoint: {
        id: expect.stringMatching(/^we_/),
        name: "Main",
        destination_url: "https://localhost:9/hook",
        events: ["prospect.ready", "move_out.initiated"],
        status: "active",
        suspension_reason: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const id = created.body.endpoint.id;
    const listed = await call<{ endpoints: Array<{ id: string }> }>("GET", base, { token });
    expect(listed.body.endpoints.map((e) => e.id)).toEqual([id]);
    const suspended = await call("PUT", `${base}/${id}`, { token, body: { endpoint: { status: "suspended", events: ["prospect.created"] } } });
    expect(suspended.body).toMatchObject({ status_code: 200, endpoint: { status: "suspended", events: ["prospect.created"], name: "Main" } });
    expect((await call("DELETE", `${base}/${id}`, { token })).status).toBe(200);
    expect((await call("PUT", `${base}/${id}`, { token, body: { endpoint: { status: "active" } } })).status).toBe(404);
    expect((await call<{ endpoints: unknown[] }>("GET", base, { token })).body.endpoints).toEqual([]);
  });

  it("starts a new destination's slow start again: the same destination keeps its record, another one loses it", async () => {
    const { base, token } = await webhookPartner();
    const created = await call<{ endpoint: { id: string } }>("POST", base, {
      token,
      body: { endpoint: { name: "Main", destination_url: "https://localhost:9/hook", events: ["prospect.ready"] } },
    });
    const id = created.body.endpoint.id;
    const db = await getDb();
    const answered = new Date("2026-11-01T00:00:00Z");
    await db.update(webhookEndpoints).set({ firstDeliveredAt: answered }).where(eq(webhookEndpoints.id, id));
    const firstDelivered = async () => (await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0].firstDeliveredAt;
    await call("PUT", `${base}/${id}`, { token, body: { endpoint: { name: "Renamed", destination_url: "https://localhost:9/hook" } } });
    expect(await firstDelivered()).toEqual(answered);
    const moved = await call("PUT", `${base}/${id}`, { token, body: { endpoint: { destination_url: "https://localhost:10/hook" } } });
    expect(moved.status).toBe(200);
    expect(await firstDelivered()).toBeNull();
  });

  it("refuses plain HTTP, unknown events, wildcards and missing fields with 422", async () => {
    const { base, token } = await webhookPartner();
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ name: "x", destination_url: "http://example.com/hook", events: ["prospect.ready"] }, { destination_url: [WEBHOOK_MESSAGES.httpsOnly] }],
      [{ name: "x", destination_url: "https://example.com/hook", events: ["prospect.*"] }, { events: [WEBHOOK_MESSAGES.unknownEvent("prospect.*")] }],
      [{ name: "x", destination_url: "https://example.com/hook", events: ["*"] }, { events: [WEBHOOK_MESSAGES.unknownEvent("*")] }],
      [{ name: "x", destination_url: "https://example.com/hook", events: [] }, { events: [WEBHOOK_MESSAGES.noEvents] }],
      [{ destination_url: "https://example.com/hook", events: ["prospect.ready"] }, { "endpoint.name": ["is required"] }],
    ];
    for (const [endpoint, fieldErrors] of cases) {
      const answer = await call("POST", base, { token, body: { endpoint } });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ status_code: 422, error: WEBHOOK_MESSAGES.invalid, errors: fieldErrors });
    }
  });

  it("refuses loopback, private and metadata destinations unless explicitly allowed", async () => {
    const { base, token } = await webhookPartner();
    process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS = "";
    resetConfig();
    for (const url of ["https://127.0.0.1/hook", "https://localhost:8443/hook", "https://169.254.169.254/latest", "https://10.0.0.5/", "https://[::1]/hook"]) {
      const answer = await call("POST", base, { token, body: { endpoint: { name: "x", destination_url: url, events: ["prospect.ready"] } } });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ errors: { destination_url: [WEBHOOK_MESSAGES.privateDestination] } });
    }
  });

  it("requires the webhooks:manage scope and a granted owner", async () => {
    const { base } = await webhookPartner();
    const reader = await newClient({ scopes: ["prospects:read"] });
    expect(await call("GET", base, { token: await reader.token() })).toMatchObject({ status: 403, body: { message: "Forbidden" } });
    const stranger = await newClient();
    expect((await call("GET", base, { token: await stranger.token() })).status).toBe(403);
  });
});

describe("webhook endpoints, provider routes (spec Delivery mechanics 6)", () => {
  it("answers 404 until provisioned and to another client, and keeps owner and provider endpoints apart", async () => {
    const { base, token, client } = await webhookPartner();
    const code = unique("prov");
    const path = `/api/partners/providers/${code}/webhooks/endpoints`;
    const body = { endpoint: { name: "Platform", destination_url: "https://localhost:9/platform", events: ["prospect.ready"] } };
    expect(await call("GET", path, { token })).toMatchObject({ status: 404, body: { status_code: 404, error: WEBHOOK_MESSAGES.providerNotFound } });
    expect((await call("POST", path, { token, body })).status).toBe(404);
    await createProvider(await getDb(), { code, clientId: client.clientId });
    const other = await newClient();
    expect(await call("GET", path, { token: await other.token() })).toMatchObject({
      status: 404,
      body: { status_code: 404, error: WEBHOOK_MESSAGES.providerNotFound },
    });
    const created = await call<{ endpoint: { id: string } }>("POST", path, { token, body });
    expect(created.status).toBe(201);
    const providerEndpoint = created.body.endpoint.id;
    const ownerEndpoint = (await call<{ endpoint: { id: string } }>("POST", base, { token, body })).body.endpoint.id;
    expect((await call("PUT", `${base}/${providerEndpoint}`, { token, body: { endpoint: { status: "disabled" } } })).status).toBe(404);
    expect((await call("DELETE", `${base}/${providerEndpoint}`, { token })).status).toBe(404);
    expect((await call("DELETE", `${path}/${ownerEndpoint}`, { token })).status).toBe(404);
    expect((await call<{ endpoints: Array<{ id: string }> }>("GET", path, { token })).body.endpoints.map((e) => e.id)).toEqual([providerEndpoint]);
    expect((await call("PUT", `${path}/${providerEndpoint}`, { token, body: { endpoint: { status: "disabled" } } })).body).toMatchObject({
      endpoint: { status: "disabled" },
    });
  });
});
