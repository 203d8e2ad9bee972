import { describe, expect, it } from "vitest";
import { z } from "zod";
import { router } from "../../server/trpc/init";
import { grant, newClient, newOwner } from "../../test/factories";
import { call, gatewayDoor } from "../../test/http";
import { ingestionProcedure, ownerProcedure, signedOwnerProcedure } from "./procedures";
import { signRequest } from "./request-signature";
import { issueAccessToken } from "./tokens";

const UNAUTHORIZED = { message: "Unauthorized" };
const FORBIDDEN = { message: "Forbidden" };
const ACCESS_DENIED = { error: "access_denied", error_description: "Unauthorized" };

async function exchange(body: Record<string, unknown>, path = "/api/token") {
  return call("POST", path, { body });
}

describe("token exchange (spec Token exchange)", () => {
  it("issues a bearer JWT lasting 8600 seconds with every granted scope when scope is omitted", async () => {
    const client = await newClient();
    const answer = await exchange({ grant_type: "client_credentials", client_id: client.clientId, client_secret: client.secret, audience: client.audience });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(answer.body.token_type).toBe("Bearer");
    expect(answer.body.expires_in).toBe(8600);
    expect(String(answer.body.scope).split(" ")).toContain("owners:write");
    const [, payload] = String(answer.body.access_token).split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    expect(claims.exp - claims.iat).toBe(8600);
    expect(claims.aud).toBe(client.audience);
  });

  it("answers the same 401 for a wrong secret, an unknown client and a wrong audience", async () => {
    const client = await newClient();
    const good = { grant_type: "client_credentials", client_id: client.clientId, client_secret: client.secret, audience: client.audience };
    for (const body of [
      { ...good, client_secret: "wrong" },
      { ...good, client_id: "pc_unknown" },
      { ...good, audience: "urn:pis:ingestion:staging" },
      { ...good, audience: "something-else" },
    ]) {
      const answer = await exchange(body);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(ACCESS_DENIED);
    }
  });

  it("refuses a client of the other gateway on this gateway's token route", async () => {
    const ingestion = await newClient({ gateway: "ingestion" });
    const onPartner = await exchange({
      grant_type: "client_credentials",
      client_id: ingestion.clientId,
      client_secret: ingestion.secret,
      audience: "urn:pis:partner-api:staging",
    });
    expect(onPartner.status).toBe(401);
    expect(onPartner.body).toEqual(ACCESS_DENIED);
  });

  it("answers 400 invalid_request when a required field is missing and 400 unsupported_grant_type for another grant", async () => {
    const client = await newClient();
    const missing = await exchange({ grant_type: "client_credentials", client_id: client.clientId, audience: client.audience });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
    expect(String(missing.body.error_description)).toContain("client_secret");
    const grantType = await exchange({ grant_type: "password", client_id: client.clientId, client_secret: client.secret, audience: client.audience });
    expect(grantType.status).toBe(400);
    expect(grantType.body.error).toBe("unsupported_grant_type");
  });

  it("narrows the token to a requested subset and refuses scopes not granted", async () => {
    const client = await newClient({ scopes: ["owners:write", "prospects:read"] });
    const narrowed = await exchange({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: client.secret,
      audience: client.audience,
      scope: "prospects:read",
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("prospects:read");
    const ownerCall = await call("POST", "/api/partners/property_owners", {
      token: String(narrowed.body.access_token),
      body: { external_org_id: "x", name: "X" },
    });
    expect(ownerCall.status).toBe(403);
    expect(ownerCall.body).toEqual(FORBIDDEN);
    const notGranted = await exchange({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: client.secret,
      audience: client.audience,
      scope: "move_outs:write",
    });
    expect(notGranted.status).toBe(400);
    expect(notGranted.body.error).toBe("invalid_scope");
  });

  it("serves the ingestion gateway's own token route and audience", async () => {
    const ingestion = await newClient({ gateway: "ingestion" });
    const answer = await exchange(
      { grant_type: "client_credentials", client_id: ingestion.clientId, client_secret: ingestion.secret, audience: ingestion.audience },
      "/ingest/token",
    );
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe("events:write");
  });
});

describe("gateway authentication (spec Token exchange 6-7, Errors)", () => {
  const ownerBody = { external_org_id: "org-auth", name: "Auth Owner" };

  it("answers exactly {message: Unauthorized} for a missing, malformed, expired, foreign or cross-gateway token", async () => {
    const client = await newClient();
    const ingestion = await newClient({ gateway: "ingestion" });
    const expired = await issueAccessToken({ clientId: client.clientId, gateway: "partner", scopes: ["owners:write"] }, new Date(Date.now() - 8601_000));
    const ingestionToken = await ingestion.token();
    const tampered = `${(await client.token()).slice(0, -4)}AAAA`;
    for (const token of [undefined, "not-a-jwt", expired, ingestionToken, tampered]) {
      const answer = await call("POST", "/api/partners/property_owners", { token, body: ownerBody });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(UNAUTHORIZED);
    }
    const onIngest = (token: string) =>
      ingestProbe(new Request("http://localhost:3999/ingest/probe", { method: "POST", headers: { authorization: `Bearer ${token}` } }));
    const partnerTokenOnIngest = await onIngest(await client.token());
    expect(partnerTokenOnIngest.status).toBe(401);
    expect(await partnerTokenOnIngest.json()).toEqual(UNAUTHORIZED);
    expect((await onIngest(ingestionToken)).status).toBe(200);
  });

  it("accepts a token until it expires", async () => {
    const client = await newClient();
    const fresh = await issueAccessToken({ clientId: client.clientId, gateway: "partner", scopes: ["owners:write"] }, new Date(Date.now() - 8500_000));
    const answer = await call("POST", "/api/partners/property_owners", { token: fresh, body: { external_org_id: `fresh-${client.clientId}`, name: "Fresh" } });
    expect(answer.status).toBe(201);
  });

  it("authenticates before looking at the body: no token and a wrong media type is still 401", async () => {
    const answer = await call("POST", "/api/partners/property_owners", { rawBody: "x=1", headers: { "content-type": "text/plain" } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(UNAUTHORIZED);
  });

  it("answers 415 for a body without Content-Type application/json and 400 for malformed JSON", async () => {
    const token = await (await newClient()).token();
    const media = await call("POST", "/api/partners/property_owners", { token, rawBody: JSON.stringify(ownerBody), headers: { "content-type": "text/plain" } });
    expect(media.status).toBe(415);
    expect(media.body).toEqual({ status_code: 415, error: "Content-Type must be application/json" });
    const broken = await call("POST", "/api/partners/property_owners", { token, rawBody: "{not json" });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ status_code: 400, error: "Request body is not valid JSON" });
  });

  it("returns X-Request-Id on every answer, keeping a well-formed incoming one", async () => {
    const ok = await call("POST", "/api/token", { body: {} });
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await call("GET", "/api/nothing-here", { headers: { "x-request-id": "trace-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123");
    expect(echoed.status).toBe(404);
    expect(echoed.body).toEqual({ status_code: 404, error: "Not found" });
  });

  it("does not serve docs or the OpenAPI document on the ingestion gateway", async () => {
    expect((await call("GET", "/ingest/docs")).status).toBe(404);
    expect((await call("GET", "/ingest/openapi.json")).status).toBe(404);
  });
});

// The owner and signature middlewares, exercised through the real REST handler on a probe route
// built with the same procedure builders the prospect and move-out routes use.
const probeRouter = router({
  owned: ownerProcedure("prospects:read")
    .meta({ openapi: { method: "GET", path: "/partners/{owner_slug}/probe" } })
    .input(z.object({ owner_slug: z.string() }))
    .output(z.object({ owner_slug: z.string() }))
    .query(({ ctx }) => ({ owner_slug: ctx.owner.slug })),
  signed: signedOwnerProcedure("prospects:write")
    .meta({ openapi: { method: "POST", path: "/partners/{owner_slug}/probe" } })
    .input(z.object({ owner_slug: z.string(), value: z.number() }))
    .output(z.object({ value: z.number() }))
    .mutation(({ input }) => ({ value: input.value })),
});
const probe = gatewayDoor(probeRouter, "/api");
const ingestProbe = gatewayDoor(
  router({
    event: ingestionProcedure("events:write")
      .meta({ openapi: { method: "POST", path: "/probe" } })
      .input(z.object({}))
      .output(z.object({ ok: z.boolean() }))
      .mutation(() => ({ ok: true })),
  }),
  "/ingest",
);

async function probeCall(method: string, path: string, token: string, options: { body?: string; signature?: string } = {}) {
  const headers = new Headers({ authorization: `Bearer ${token}` });
  if (options.body !== undefined) headers.set("content-type", "application/json");
  if (options.signature) headers.set("x-request-signature", options.signature);
  const response = await probe(new Request(`http://localhost:3999${path}`, { method, headers, body: options.body }));
  return { status: response.status, body: await response.json() };
}

describe("owner access (spec Owner slugs and access)", () => {
  it("answers 404 for an unknown slug, 403 for an owner not granted, and serves a granted one", async () => {
    const holder = await newClient();
    const other = await newClient();
    const owner = await newOwner(holder);
    const unknown = await probeCall("GET", "/api/partners/no-such-owner/probe", await holder.token());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status_code: 404, error: "Property owner not found" });
    const denied = await probeCall("GET", `/api/partners/${owner.slug}/probe`, await other.token());
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ status_code: 403, error: "Client is not authorized for this property owner" });
    await grant(other, owner.id);
    const allowed = await probeCall("GET", `/api/partners/${owner.slug}/probe`, await other.token());
    expect(allowed).toEqual({ status: 200, body: { owner_slug: owner.slug } });
  });
});

describe("request signatures (decisions §6)", () => {
  const INVALID = { status_code: 401, error: "Invalid request signature" };

  it("requires a valid, fresh signature from a client created with --require-signature", async () => {
    const client = await newClient({ requireSignature: true });
    const owner = await newOwner(client);
    const token = await client.token();
    const path = `/api/partners/${owner.slug}/probe`;
    const body = JSON.stringify({ value: 7 });
    const sign = (at: Date, overrides: Partial<{ body: string; method: string; path: string }> = {}) =>
      signRequest(client.secret, { method: overrides.method ?? "POST", pathWithQuery: overrides.path ?? path, rawBody: overrides.body ?? body }, at);

    expect(await probeCall("POST", path, token, { body })).toEqual({ status: 401, body: INVALID });
    expect(await probeCall("POST", path, token, { body, signature: sign(new Date()) })).toEqual({ status: 200, body: { value: 7 } });
    expect(await probeCall("POST", path, token, { body, signature: sign(new Date(Date.now() - 301_000)) })).toEqual({ status: 401, body: INVALID });
    expect(await probeCall("POST", path, token, { body, signature: sign(new Date(Date.now() + 301_000)) })).toEqual({ status: 401, body: INVALID });
    expect(await probeCall("POST", path, token, { body, signature: sign(new Date(), { body: '{"value":8}' }) })).toEqual({ status: 401, body: INVALID });
    expect(await probeCall("POST", path, token, { body, signature: sign(new Date(), { path: `${path}?x=1` }) })).toEqual({ status: 401, body: INVALID });
    expect(await probeCall("POST", path, token, { body, signature: "t=abc,v1=zz" })).toEqual({ status: 401, body: INVALID });
  });

  it("lets other clients omit the header but refuses an invalid one", async () => {
    const client = await newClient();
    const owner = await newOwner(client);
    const token = await client.token();
    const path = `/api/partners/${owner.slug}/probe`;
    const body = JSON.stringify({ value: 1 });
    expect(await probeCall("POST", path, token, { body })).toEqual({ status: 200, body: { value: 1 } });
    expect(await probeCall("POST", path, token, { body, signature: "t=1,v1=00" })).toEqual({ status: 401, body: INVALID });
    const good = signRequest(client.secret, { method: "POST", pathWithQuery: path, rawBody: body });
    expect(await probeCall("POST", path, token, { body, signature: good })).toEqual({ status: 200, body: { value: 1 } });
  });
});
