import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { grant, newClient, newOwner } from "../../test/factories";
import { call, throughDoor } from "../../test/http";
import { auditLog } from "../audit/audit-log.table";
import { rotateClientSecret, setClientDisabled, updateClient } from "../auth/console/clients";
import type { Scope } from "../auth/scopes";
import { propertyOwners } from "../owners/owners.table";
import { webhookPartner } from "../webhooks/webhook-test-helpers";
import { portalFramingHeadersFor } from "./framing";
import { PORTAL_MESSAGES } from "./messages";
import { portalDelivery, portalEndpoint, portalEndpoints } from "./portal";
import { type Opened, openedPortal, portalCookieOf, visitPortalLink as visit } from "./portal-test-helpers";
import { PORTAL_COOKIE, PORTAL_SIGN_OUT_PATH, portalSessionOf, signPortalToken } from "./session";

const STAFF = { cli: "portal-test" } as const;

async function partner(scopes?: Scope[]) {
  const client = await newClient(scopes ? { scopes } : {});
  const owner = await newOwner(client);
  return { client, owner, token: await client.token() };
}

const live = async (cookie: string) => portalSessionOf(await getDb(), cookie);

/** A page of the portal asked with the cookie: the framing it answers (src/proxy.ts asks the same). */
const framingOf = (cookie: string) => portalFramingHeadersFor("/portal/endpoints/we_x", cookie);

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
    expect(cookie).toMatch(new RegExp(`^${PORTAL_COOKIE}=[\\w-]{40,}`));
    expect(cookie).toContain("Path=/portal");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toMatch(/Max-Age=(359\d|3600)/);
    // The cookie is not the link: the link's token is spent on this visit.
    expect(cookie).not.toContain(new URL(body.url).pathname.split("/").at(-1));
    expect((await live(portalCookieOf(entered) ?? ""))?.owner.slug).toBe(owner.slug);
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
    const { token: old } = signPortalToken(client.clientId, owner.id, "ps_old", Date.now() - 3_601_000);
    const expired = await visit(`http://localhost/portal/session/${old}`);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain(PORTAL_MESSAGES.linkExpired);
    // A link signed with the right key for a session never opened (no row): not valid.
    const { token: forged } = signPortalToken(client.clientId, owner.id, "ps_never_opened");
    expect((await visit(`http://localhost/portal/session/${forged}`)).status).toBe(403);
  });
});

describe("portal sessions are bound and revocable (docs/decisions.md, Second security review)", () => {
  it("opens a link once: a second visit is refused with a page that says so, and sets no cookie", async () => {
    const mine = await partner();
    const { url, cookie } = await openedPortal(mine);
    const again = await visit(url);
    expect(again.status).toBe(403);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await again.text()).toContain(PORTAL_MESSAGES.linkUsed);
    // The first visit's session goes on.
    expect(await live(cookie)).toBeDefined();
  });

  it("ends at once when the client's secret is rotated, when it loses webhooks:manage, when it is disabled", async () => {
    const rotated = await partner();
    const a = await openedPortal(rotated);
    await rotateClientSecret(await getDb(), STAFF, rotated.client.clientId);
    expect(await live(a.cookie)).toBeUndefined();
    expect(await framingOf(a.cookie)).toMatchObject({ "X-Frame-Options": "DENY" });

    const narrowed = await partner();
    const b = await openedPortal(narrowed);
    await updateClient(await getDb(), STAFF, { client_id: narrowed.client.clientId, scopes: ["prospects:write"] });
    expect(await live(b.cookie)).toBeUndefined();

    const disabled = await partner();
    const c = await openedPortal(disabled);
    const { body } = await call<Opened>("POST", `/api/partners/${disabled.owner.slug}/portal_sessions`, { token: disabled.token, body: {} });
    await setClientDisabled(await getDb(), STAFF, { client_id: disabled.client.clientId, disabled: true });
    expect(await live(c.cookie)).toBeUndefined();
    expect((await visit(body.url)).status).toBe(403);
    // Enabled again, as its unexpired access tokens, the session works again (a leaked secret is rotated).
    await setClientDisabled(await getDb(), STAFF, { client_id: disabled.client.clientId, disabled: false });
    expect(await live(c.cookie)).toBeDefined();
  });

  it("signs out through the door: the session ends on the server, the cookie is cleared, an audit row says so", async () => {
    const mine = await partner();
    const { cookie, session } = await openedPortal(mine);
    const out = await throughDoor(
      new Request(`http://localhost${PORTAL_SIGN_OUT_PATH}`, { method: "POST", headers: { cookie: `${PORTAL_COOKIE}=${cookie}` } }),
    );
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/portal?notice=signed_out");
    expect(out.headers.get("set-cookie")).toMatch(new RegExp(`^${PORTAL_COOKIE}=; Path=/portal; Max-Age=0`));
    expect(await live(cookie)).toBeUndefined();
    const rows = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "portal_session"), eq(auditLog.subjectId, session.id)));
    expect(rows.map((row) => [row.action, row.actorLabel])).toEqual([
      ["portal_sessions.create", `client:${mine.client.clientId} portal:${session.id}`],
      ["portal_sessions.sign_out", `client:${mine.client.clientId} portal:${session.id}`],
    ]);
    // Another site's page cannot sign a portal out.
    const other = await openedPortal(mine);
    const crossSite = await throughDoor(
      new Request(`http://localhost${PORTAL_SIGN_OUT_PATH}`, {
        method: "POST",
        headers: { cookie: `${PORTAL_COOKIE}=${other.cookie}`, "sec-fetch-site": "cross-site" },
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(await live(other.cookie)).toBeDefined();
  });

  it("is framed only by origins its own client asked for, never by another client's change to the owner", async () => {
    const ADMIN = "https://admin.partner.example";
    const EVIL = "https://evil.other-partner.example";
    const mine = await partner();
    // Another partner granted the same owner sets the owner's frame origins (its right, for enrollment).
    const sibling = await newClient();
    await grant(sibling, mine.owner.id);
    const db = await getDb();
    await db
      .update(propertyOwners)
      .set({ embeddedFrameAncestors: [ADMIN, EVIL] })
      .where(eq(propertyOwners.id, mine.owner.id));

    // A session that asked for nothing is unframeable, whatever the owner lists.
    const plain = await openedPortal(mine);
    expect(plain.entered.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(await framingOf(plain.cookie)).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'" });

    // A session that asked for its admin is framed by that origin only.
    const framed = await openedPortal(mine, { frame_ancestors: [ADMIN] });
    expect(framed.entered.headers.get("content-security-policy")).toBe(`frame-ancestors ${ADMIN}`);
    expect(await framingOf(framed.cookie)).toEqual({ "Content-Security-Policy": `frame-ancestors ${ADMIN}` });
    // The owner no longer lists it: no longer framed.
    await db
      .update(propertyOwners)
      .set({ embeddedFrameAncestors: [EVIL] })
      .where(eq(propertyOwners.id, mine.owner.id));
    expect(await framingOf(framed.cookie)).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'" });

    // Asking for an origin the owner does not list: 422 naming it; not an HTTPS origin: 422.
    const unlisted = await call("POST", `/api/partners/${mine.owner.slug}/portal_sessions`, { token: mine.token, body: { frame_ancestors: [ADMIN] } });
    expect(unlisted.status).toBe(422);
    expect(unlisted.body).toMatchObject({ status_code: 422, errors: { frame_ancestors: [PORTAL_MESSAGES.frameNotListed([ADMIN])] } });
    const notOrigin = await call("POST", `/api/partners/${mine.owner.slug}/portal_sessions`, {
      token: mine.token,
      body: { frame_ancestors: ["http://admin.partner.example/x"] },
    });
    expect(notOrigin.status).toBe(422);

    expect(await portalFramingHeadersFor("/portal", undefined)).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" });
    expect(await portalFramingHeadersFor("/portal", `${plain.cookie}x`)).toMatchObject({ "X-Frame-Options": "DENY" });
    expect(await portalFramingHeadersFor("/portalx", plain.cookie)).toBeUndefined();
    expect(await portalFramingHeadersFor("/console", plain.cookie)).toBeUndefined();
  });

  it("reaches only the session's client and owner: another owner's or client's endpoint is not found", async () => {
    const mine = await webhookPartner();
    const mineId = await mine.register("https://localhost:9/hook", ["prospect.created"]);
    const theirs = await webhookPartner();
    const theirsId = await theirs.register("https://localhost:9/hook", ["prospect.created"]);
    const db = await getDb();
    const { session } = await openedPortal(mine);
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
    const { session: siblings } = await openedPortal({ owner: mine.owner, token: await sibling.token() });
    expect(await portalEndpoints(db, siblings)).toEqual([]);
    await expect(portalEndpoint(db, siblings, mineId)).rejects.toMatchObject({ kind: "not_found" });
  });
});
