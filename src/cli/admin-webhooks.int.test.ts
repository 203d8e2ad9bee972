import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prospectPartner } from "../features/prospects/prospect-test-helpers";
import { emitEvent } from "../features/webhooks/emit";
import { providerBuildings, providers } from "../features/webhooks/providers.table";
import { webhookPartner } from "../features/webhooks/webhook-test-helpers";
import { webhookEndpoints } from "../features/webhooks/webhooks.table";
import { getDb } from "../server/db/client";
import { unique } from "../test/factories";
import { call } from "../test/http";
import { receiversOfThisFile } from "../test/https-receiver";
import { runDueJobs } from "../test/jobs";
import { admin } from "./admin-test-helpers";

afterEach(() => vi.restoreAllMocks());

const receiver = receiversOfThisFile();

describe("npm run admin -- provider create --building (spec Delivery mechanics 6)", () => {
  it("covers named buildings of an owner, and the subscription is provisioned at once", async () => {
    const partner = await prospectPartner({ activate: false });
    const code = unique("bldg");
    const created = await admin("provider", "create", "--code", code, "--client-id", partner.client.clientId, "--building", `${partner.owner.slug}:b1`);
    expect(created).toMatchObject({ code: 0, err: "" });
    expect(created.out).toEqual({
      provider: { code, client_id: partner.client.clientId, owners: [], buildings: [{ owner_slug: partner.owner.slug, external_id: "b1" }] },
    });
    const db = await getDb();
    const [provider] = await db.select().from(providers).where(eq(providers.code, code));
    expect(await db.select().from(providerBuildings).where(eq(providerBuildings.providerId, provider.id))).toHaveLength(1);
    expect((await call("GET", `/api/partners/providers/${code}/webhooks/endpoints`, { token: partner.token })).status).toBe(200);
  });

  it("refuses a malformed --building or an unknown building, and writes nothing", async () => {
    const partner = await prospectPartner({ activate: false });
    const code = unique("bad");
    const malformed = await admin("provider", "create", "--code", code, "--client-id", partner.client.clientId, "--building", "b1");
    expect(malformed.code).toBe(2);
    expect(malformed.err).toContain("--building must be OWNER_SLUG:EXTERNAL_ID");
    const unknown = await admin("provider", "create", "--code", code, "--client-id", partner.client.clientId, "--building", `${partner.owner.slug}:b9`);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(`No building b9 under owner ${partner.owner.slug} (not_found)`);
    expect(await (await getDb()).select().from(providers).where(eq(providers.code, code))).toEqual([]);
  });
});

describe("npm run admin -- endpoint headers (spec Delivery mechanics 5)", () => {
  it("sets and unsets an endpoint's static headers, which deliveries then send first", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver();
    const endpoint = await register(hook.url, ["prospect.ready"]);
    const set = await admin("endpoint", "headers", "--endpoint-id", endpoint, "--set", "X-Partner-Key: abc 123", "--set", "X-Tenant:t-1");
    expect(set).toMatchObject({ code: 0, out: { endpoint_id: endpoint, static_headers: { "X-Partner-Key": "abc 123", "X-Tenant": "t-1" } } });
    const replaced = await admin("endpoint", "headers", "--endpoint-id", endpoint, "--set", "x-partner-key: xyz", "--unset", "X-TENANT");
    expect(replaced.out).toEqual({ endpoint_id: endpoint, static_headers: { "x-partner-key": "xyz" } });
    expect((await admin("endpoint", "headers", "--endpoint-id", endpoint)).out).toEqual(replaced.out);

    await emitEvent(await getDb(), { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.ready", data: { id: "h" } });
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].headers).toMatchObject({ "x-partner-key": "xyz", "content-type": "application/json", "x-webhook-event": "prospect.ready" });
    expect(hook.received[0].headers["x-tenant"]).toBeUndefined();
  });

  it("refuses Content-Type, X-Webhook-* and malformed names or values with a clear message, writing nothing", async () => {
    const { register } = await webhookPartner();
    const endpoint = await register("https://localhost:9/hook", ["prospect.ready"]);
    await admin("endpoint", "headers", "--endpoint-id", endpoint, "--set", "X-Kept: yes");
    const cases: Array<[string[], string]> = [
      [["--set", "Content-Type: text/plain"], "Content-Type: cannot be set"],
      [["--set", "X-Webhook-Signature: forged"], "X-Webhook-Signature: cannot be set"],
      [["--set", "x-webhook-event: forged"], "x-webhook-event: cannot be set"],
      [["--set", "Host: example.com"], "Host: cannot be set"],
      [["--set", "Bad Name: v"], "Bad Name: is not a valid header name"],
      [["--set", "X-Line: a\r\nInjected: yes"], "X-Line: must be a non-empty header value"],
      [["--set", "X-Nul: a\u0000b"], "X-Nul: must be a non-empty header value"],
      [["--set", "X-Empty:"], "X-Empty: must be a non-empty header value"],
      [["--set", "X-Wide: \u20ac"], "X-Wide: must be a non-empty header value"],
      [["--set", "X-A: 1", "--set", "x-a: 2"], "is set twice"],
      [["--set", "X-B: 1", "--unset", "x-b"], "x-b: is both set and unset"],
    ];
    for (const [flags, message] of cases) {
      const refused = await admin("endpoint", "headers", "--endpoint-id", endpoint, "--set", "X-Also: 1", ...flags);
      expect([flags, refused.code]).toEqual([flags, 1]);
      expect(refused.err).toContain("Static headers are invalid (invalid)");
      expect(refused.err).toContain(message);
    }
    const noColon = await admin("endpoint", "headers", "--endpoint-id", endpoint, "--set", "X-Missing");
    expect(noColon.code).toBe(2);
    expect(noColon.err).toContain("--set must be 'Name: value'");
    const [row] = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint));
    expect(row.staticHeaders).toEqual({ "X-Kept": "yes" });
    const missing = await admin("endpoint", "headers", "--endpoint-id", "we_missing", "--set", "X-A: 1");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("Webhook endpoint not found (not_found)");
  });
});
