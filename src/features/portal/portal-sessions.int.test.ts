import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { grant, newClient, newOwner } from "../../test/factories";
import { call, throughDoor } from "../../test/http";
import { apiClients } from "../auth/clients.table";
import type { Scope } from "../auth/scopes";
import { propertyOwners } from "../owners/owners.table";
import { webhookPartner } from "../webhooks/webhook-test-helpers";
import { portalFramingHeadersFor } from "./framing";
import { PORTAL_MESSAGES } from "./messages";
import { portalDelivery, portalEndpoint, portalEndpoints } from "./portal";
import { PORTAL_COOKIE, portalSessionOf, signPortalToken } from "./session";

type Opened = { status_code: number; url: string; expires_at: string };

async function partner(scopes?: Scope[]) {
  const client = await newClient(scopes ? { scopes } : {});
  const owner = await newOwner(client);
  return { client, owner, token: await client.token() };
}

const visit = (url: string) => throughDoor(new Request(`http://localhost${new URL(url).pathname}`));

describe("portal sessions (decisions §16 Portal)", () => {
  it("answers 201 with a URL under {PUBLIC_BASE_URL}/portal/ valid one hour", async () => {
    const { owner, token } = await partner();
    const before = Date.now();
    const answer = await call<Opened>("POST", `/api/partners/${owner.slug}/portal_sessions`, { token, body: {} });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(["expires_at", "status_code", "url"]);
    expect(answer.body.status_code).toBe(201);
    expect(answer.body.url).toMatch(/^http:\/\/localhost:\d+\/portal\/session\/v1\.[\w-]+\.[\w-]+$/);
    // One hour from when the request was answered (the timestamp may drop its milliseconds).
    const after = Date.now();
    const expires = new Date(answer.body.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(expires).toBeLessThanOrEqual(after + 3_600_000);
  });

  it("refuses a client without webhooks:manage (403), another owner (404) and a body with fields (422)", async () => {
    const narrow = await partner(["prospects:write"]);
    const forbidden = await call("POST", `/api/partners/${narrow.owner.slug}/portal_sessions`, { token: narrow.token, body: {} });
    expect(forbidden.status).toBe(403);
    const { token } = await partner();
    const other = await partner();
    const unknown = await call("POST", `/api/partners/${other.owner.slug}x/portal_sessions`, { token, body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status_code: 404, error: "Property owner not found" });
    const ungranted = await call("POST", `/api/partners/${other.owner.slug}/portal_sessions`, { token, body: {} });
    expect(ungranted.status).toBe(403);
    const mine = await partner();
    const extra = await call("POST", `/api/partners/${mine.owner.slug}/portal_sessions`, { token: mine.token, body: { owner_id: 1 } });
    expect(extra.status).toBe(422);
    expect(extra.body).toMatchObject({ status_code: 422 });
  });

  it("trades the URL for an HttpOnly /portal cookie and a 303 to /portal, without a referrer", async () => {
    const { owner, token } = await partner();
    const { body } = await call<Opened>("POST", `/api/partners/${owner.slug}/portal_sessions`, { token, body: {} });
    const entered = await visit(body.url);
    expect(entered.status).toBe(303);
    expect(entered.headers.get("location")).toBe("/portal");
    expect(entered.headers.get("referrer-policy")).toBe("no-referrer");
    expect(entered.headers.get("cache-control")).toBe("no-store");
    const cookie = entered.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${PORTAL_COOKIE}=v1\\.`));
    expect(cookie).toContain("Path=/portal");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toMatch(/Max-Age=(359\d|3600)/);
    const session = await portalSessionOf(await getDb(), cookie.split(";")[0].split("=")[1]);
    expect(session?.owner.slug).toBe(owner.slug);
  });

  it("refuses an altered link (403) and an expired one (410) with a page that says so, and no cookie", async () => {
    const { client, owner, token } = await partner();
    const { body } = await call<Opened>("POST", `/api/partners/${owner.slug}/portal_sessions`, { token, body: {} });
    const altered = `${body.url.slice(0, -2)}${body.url.endsWith("AA") ? "AB" : "AA"}`;
    const refused = await visit(altered);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(refused.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await refused.text()).toContain(PORTAL_MESSAGES.linkInvalid);
    const { token: old } = signPortalToken(client.clientId, owner.id, Date.now() - 3_601_000);
    const expired = await visit(`http://localhost/portal/session/${old}`);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain(PORTAL_MESSAGES.linkExpired);
  });

  it("closes the session of a disabled client", async () => {
    const { client, owner, token } = await partner();
    const { body } = await call<Opened>("POST", `/api/partners/${owner.slug}/portal_sessions`, { token, body: {} });
    await (await getDb()).update(apiClients).set({ disabledAt: new Date() }).where(eq(apiClients.id, client.clientId));
    expect((await visit(body.url)).status).toBe(403);
  });

  it("frames portal pages by the session owner's origins only, and nothing without a session", async () => {
    const { client, owner } = await partner();
    await (await getDb())
      .update(propertyOwners)
      .set({ embeddedFrameAncestors: ["https://admin.partner.example"] })
      .where(eq(propertyOwners.id, owner.id));
    const { token } = signPortalToken(client.clientId, owner.id);
    expect(await portalFramingHeadersFor("/portal/endpoints/we_x", token)).toEqual({
      "Content-Security-Policy": "frame-ancestors https://admin.partner.example",
    });
    expect(await portalFramingHeadersFor("/portal", undefined)).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" });
    expect(await portalFramingHeadersFor("/portal", `${token}x`)).toMatchObject({ "X-Frame-Options": "DENY" });
    expect(await portalFramingHeadersFor("/portalx", token)).toBeUndefined();
    expect(await portalFramingHeadersFor("/console", token)).toBeUndefined();
  });

  it("reaches only the session's client and owner: another owner's or client's endpoint is not found", async () => {
    const mine = await webhookPartner();
    const mineId = await mine.register("https://localhost:9/hook", ["prospect.created"]);
    const theirs = await webhookPartner();
    const theirsId = await theirs.register("https://localhost:9/hook", ["prospect.created"]);
    const db = await getDb();
    const session = await portalSessionOf(db, signPortalToken(mine.client.clientId, mine.owner.id).token);
    if (!session) throw new Error("no session");
    expect((await portalEndpoints(db, session)).map((endpoint) => endpoint.id)).toEqual([mineId]);
    expect((await portalEndpoint(db, session, mineId)).health).toEqual({
      attempts: 0,
      succeeded: 0,
      successRate: null,
      lastFailureAt: null,
      lastFailureReason: null,
    });
    await expect(portalEndpoint(db, session, theirsId)).rejects.toMatchObject({ kind: "not_found" });
    await expect(portalDelivery(db, session, theirsId, "wd_x")).rejects.toMatchObject({ kind: "not_found" });
    // The same owner, another client: that client's session sees none of this client's endpoints.
    const sibling = await newClient();
    await grant(sibling, mine.owner.id);
    const siblings = await portalSessionOf(db, signPortalToken(sibling.clientId, mine.owner.id).token);
    if (!siblings) throw new Error("no session");
    expect(await portalEndpoints(db, siblings)).toEqual([]);
    await expect(portalEndpoint(db, siblings, mineId)).rejects.toMatchObject({ kind: "not_found" });
  });
});
