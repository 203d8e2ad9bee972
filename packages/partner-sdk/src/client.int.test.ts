import { describe, expect, it } from "vitest";
import { createSource } from "../../../src/features/prospects/sources";
import { address } from "../../../src/features/roster/roster-test-helpers";
import { emitEvent } from "../../../src/features/webhooks/emit";
import { webhookPartner } from "../../../src/features/webhooks/webhook-test-helpers";
import { resetConfig } from "../../../src/server/config";
import { getDb } from "../../../src/server/db/client";
import { newClient, newOwner, unique } from "../../../src/test/factories";
import { webDoorUrl } from "../../../src/test/http";
import { receiversOfThisFile } from "../../../src/test/https-receiver";
import { runDueJobs } from "../../../src/test/jobs";
import { completeProspectFields } from "../../../src/test/samples";
import { createPartnerClient, TokenError, verifyWebhook, WebhookVerificationError } from "./index";

const receiver = receiversOfThisFile();

/** The SDK against the real service: the web process's door over HTTP, a real client's credentials. */
async function sdkFor(client: { clientId: string; secret: string; audience: string }, options: { now?: () => number; counted?: string[] } = {}) {
  const baseUrl = `${await webDoorUrl()}/api`;
  return createPartnerClient({
    baseUrl,
    credentials: { clientId: client.clientId, clientSecret: client.secret, audience: client.audience },
    now: options.now,
    fetch: (request) => {
      options.counted?.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    },
  });
}

describe("the partner SDK against the real service", () => {
  it("exchanges its credentials, upserts an owner, loads a roster, upserts and reads a prospect, lists endpoints", async () => {
    const client = await newClient();
    const source = unique("src").replace("-", "_");
    await createSource(await getDb(), { code: source, clientId: client.clientId });
    const sdk = await sdkFor(client);
    const externalOrgId = unique("org");

    const created = await sdk.POST("/partners/property_owners", { body: { external_org_id: externalOrgId, name: "Maple Street Holdings" } });
    expect(created.response.status).toBe(201);
    const slug = created.data?.property_owner.owner_slug ?? "";
    expect(slug).not.toBe("");
    const path = { owner_slug: slug };
    await sdk.POST("/partners/{owner_slug}/bank_accounts", {
      params: { path },
      body: [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "123456" }],
    });
    await sdk.POST("/partners/{owner_slug}/properties", {
      params: { path },
      body: [{ external_system_id: "b1", building_name: "One", address: address("10 Main St") }],
    });
    await sdk.POST("/partners/{owner_slug}/units", { params: { path }, body: [{ external_system_id: "u1", property_external_id: "b1", name: "101" }] });
    const activated = await sdk.POST("/partners/property_owners", { body: { external_org_id: externalOrgId, purchase_flow_enabled: true } });
    expect(activated.data?.property_owner.purchase_flow_enabled).toBe(true);

    const upserted = await sdk.POST("/partners/{owner_slug}/prospects", { params: { path }, body: { prospect: completeProspectFields(source, "sdk-1") } });
    expect(upserted.response.status).toBe(200);
    expect(upserted.data?.prospect).toMatchObject({ source_prospect_id: "sdk-1" });
    const read = await sdk.GET("/partners/{owner_slug}/prospects/{source}/{source_prospect_id}", {
      params: { path: { owner_slug: slug, source, source_prospect_id: "sdk-1" } },
    });
    expect(read.data?.prospect.id).toBe(upserted.data?.prospect.id);

    const listed = await sdk.GET("/partners/{owner_slug}/webhooks/endpoints", { params: { path } });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.endpoints).toEqual([]);
    // One exchange served every call above.
    expect(sdk.tokens.exchanges).toBe(1);
  });

  it("answers a refused request as a typed error body, not an exception", async () => {
    const client = await newClient();
    const sdk = await sdkFor(client);
    const missing = await sdk.GET("/partners/{owner_slug}/prospects/{source}/{source_prospect_id}", {
      params: { path: { owner_slug: "no-such-owner", source: "s", source_prospect_id: "p" } },
    });
    expect(missing.data).toBeUndefined();
    expect([403, 404]).toContain(missing.response.status);
    const invalid = await sdk.POST("/partners/property_owners", { body: { external_org_id: "" } });
    expect(invalid.response.status).toBe(422);
    // The 422 body of the document: `{status_code, errors}`, typed by the generated schema.
    const errors = invalid.error && "errors" in invalid.error ? invalid.error.errors : undefined;
    expect(invalid.error).toMatchObject({ status_code: 422 });
    expect(errors).toBeDefined();
  });

  it("keeps one token until shortly before expiry, with one exchange in flight for concurrent calls", async () => {
    const client = await newClient();
    let clock = Date.now();
    const requests: string[] = [];
    const sdk = await sdkFor(client, { now: () => clock, counted: requests });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sdk.GET("/partners/{owner_slug}/webhooks/endpoints", { params: { path: { owner_slug: "x" } } })),
    );
    expect(answers.every((answer) => answer.response.status !== 401)).toBe(true);
    expect(requests.filter((request) => request === "POST /api/token")).toHaveLength(1);
    // `expires_in` is 8600 s: 8500 s later, more than the 60 s margin before expiry, the token is still used.
    clock += 8_500_000;
    await sdk.tokens.token();
    expect(sdk.tokens.exchanges).toBe(1);
    // Within the last minute the cache exchanges again, once for concurrent callers.
    clock += 50_000;
    const [first, second] = await Promise.all([sdk.tokens.token(), sdk.tokens.token()]);
    expect(first).toBe(second);
    expect(sdk.tokens.exchanges).toBe(2);
  });

  it("reports rejected credentials as a TokenError with the OAuth body", async () => {
    const client = await newClient();
    const sdk = await sdkFor({ ...client, secret: "wrong-secret" });
    await expect(sdk.GET("/partners/{owner_slug}/webhooks/endpoints", { params: { path: { owner_slug: "x" } } })).rejects.toMatchObject({
      name: "TokenError",
      status: 401,
      body: { error: "access_denied" },
    });
    expect(TokenError).toBeDefined();
  });
});

describe("verifyWebhook against a real delivery", () => {
  it("accepts the delivery as sent and rejects a tampered body, a wrong secret and an old timestamp", async () => {
    const { client, owner, secrets } = await webhookPartner();
    const hook = await receiver();
    const sdk = await sdkFor(client);
    const registered = await sdk.POST("/partners/{owner_slug}/webhooks/endpoints", {
      params: { path: { owner_slug: owner.slug } },
      body: { endpoint: { name: "sdk", destination_url: hook.url, events: ["move_out.initiated"] } },
    });
    expect(registered.response.status).toBe(201);
    await emitEvent(await getDb(), {
      ownerId: owner.id,
      ownerSlug: owner.slug,
      event: "move_out.initiated",
      data: { move_out_id: 7, external_id: "mo-7", status: "initiated" },
    });
    await runDueJobs();
    const [delivery] = hook.received;
    const { current } = await secrets();

    expect(verifyWebhook(delivery.rawBody, delivery.headers, current)).toEqual({
      event: "move_out.initiated",
      property_owner_slug: owner.slug,
      data: { move_out: { move_out_id: 7, external_id: "mo-7", status: "initiated" } },
    });
    expect(verifyWebhook(Buffer.from(delivery.rawBody), new Headers(delivery.headers), ["old-secret", current]).event).toBe("move_out.initiated");

    const reason = (run: () => unknown) => {
      try {
        run();
        return "verified";
      } catch (failure) {
        return failure instanceof WebhookVerificationError ? failure.reason : String(failure);
      }
    };
    expect(reason(() => verifyWebhook(delivery.rawBody.replace('"mo-7"', '"mo-8"'), delivery.headers, current))).toBe("signature_mismatch");
    expect(reason(() => verifyWebhook(`${delivery.rawBody} `, delivery.headers, current))).toBe("signature_mismatch");
    expect(reason(() => verifyWebhook(delivery.rawBody, delivery.headers, `${current}x`))).toBe("signature_mismatch");
    const sentAt = Number(delivery.headers["x-webhook-timestamp"]) * 1000;
    expect(reason(() => verifyWebhook(delivery.rawBody, delivery.headers, current, { now: () => sentAt + 301_000 }))).toBe("timestamp_out_of_tolerance");
    expect(reason(() => verifyWebhook(delivery.rawBody, delivery.headers, current, { now: () => sentAt + 299_000 }))).toBe("verified");
    expect(reason(() => verifyWebhook(delivery.rawBody, { ...delivery.headers, "x-webhook-timestamp": String(sentAt / 1000 - 1) }, current))).toBe(
      "timestamp_mismatch",
    );
    expect(reason(() => verifyWebhook(delivery.rawBody, { "x-webhook-timestamp": delivery.headers["x-webhook-timestamp"] }, current))).toBe("missing_header");
  });
});

describe("the SDK and the request limit (docs/decisions.md, Partner developer: rate limits)", () => {
  it("sends a request the service refused with 429 again after Retry-After, a bounded number of times", { timeout: 60_000 }, async () => {
    const client = await newClient();
    const owner = await newOwner(client);
    const statuses: number[] = [];
    const sdkWith = async (rateLimitRetries: number) =>
      createPartnerClient({
        baseUrl: `${await webDoorUrl()}/api`,
        credentials: { clientId: client.clientId, clientSecret: client.secret, audience: client.audience },
        rateLimitRetries,
        fetch: async (request) => {
          const response = await fetch(request);
          if (!request.url.endsWith("/token")) statuses.push(response.status);
          return response;
        },
      });
    const retrying = await sdkWith(3);
    const params = { params: { path: { owner_slug: owner.slug } } };
    await retrying.tokens.token();
    // One request a second, bursts of two, for the time of this test.
    process.env.API_RATE_LIMIT_PER_SECOND = "1";
    resetConfig();
    try {
      const started = Date.now();
      for (let i = 0; i < 4; i++) expect((await retrying.GET("/partners/{owner_slug}/webhooks/endpoints", params)).response.status).toBe(200);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);

      const handsBack = await sdkWith(0);
      let refused: Response | undefined;
      for (let i = 0; i < 4 && !refused; i++) {
        const { response } = await handsBack.GET("/partners/{owner_slug}/webhooks/endpoints", params);
        if (response.status === 429) refused = response;
      }
      expect(refused?.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(refused?.headers.get("ratelimit-remaining")).toBe("0");
    } finally {
      process.env.API_RATE_LIMIT_PER_SECOND = "1000000";
      resetConfig();
    }
  });
});
