import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ingestionEvents } from "../../features/ingestion/ingestion-events.table";
import { PROSPECT_MESSAGES } from "../../features/prospects/messages";
import { completeProspect, prospectPartner } from "../../features/prospects/prospect-test-helpers";
import { grant, newClient } from "../../test/factories";
import { call } from "../../test/http";
import { getDb } from "../db/client";
import { MAX_NESTING, TEXT_MESSAGES } from "./bad-text";

const UNAUTHORIZED = { message: "Unauthorized" };

/** A JSON text with `"\u0000"`-style escapes kept as escapes (JSON.stringify would keep a lone surrogate as an escape too). */
const withEscape = (json: string, placeholder: string, jsonEscape: string) => json.replace(placeholder, jsonEscape);

describe("bad text in a JSON body (docs/decisions.md, Requests and errors)", () => {
  it("answers the prospect route's 422 naming the field, for NUL, another control character and a lone surrogate, and writes nothing", async () => {
    const { source, base, token, get } = await prospectPartner();
    const cases: Array<[string, string, string]> = [
      ["nul", "first_name", "\\u0000"],
      ["ctl", "last_name", "a\\u0007b"],
      ["sur", "first_name", "\\ud800"],
      ["low", "email", "x\\udc00@example.com"],
    ];
    for (const [id, field, jsonEscape] of cases) {
      const raw = withEscape(JSON.stringify({ prospect: completeProspect(source, `bad-${id}`, { [field]: "PLACEHOLDER" }) }), "PLACEHOLDER", jsonEscape);
      const answer = await call("POST", `${base}/prospects`, { token, rawBody: raw });
      const message = jsonEscape.includes("ud") ? TEXT_MESSAGES.surrogate : TEXT_MESSAGES.control;
      expect(answer, id).toMatchObject({ status: 422, body: { status_code: 422, error: PROSPECT_MESSAGES.invalid, prospect: { [field]: message } } });
      expect((await get(`bad-${id}`)).status).toBe(404);
    }
  });

  it("names a nested field and an object holding a bad key", async () => {
    const { source, post } = await prospectPartner();
    const nested = await post(completeProspect(source, "bad-nested", { property: { external_system_id: "b\u0000" } }));
    expect(nested.body).toEqual({ status_code: 422, error: PROSPECT_MESSAGES.invalid, prospect: { "property.external_system_id": TEXT_MESSAGES.control } });
    const key = await post(completeProspect(source, "bad-key", { authorized_members: [{ "na\u0000me": "x" }] }));
    expect(key.body).toEqual({ status_code: 422, error: PROSPECT_MESSAGES.invalid, prospect: { "authorized_members.0": TEXT_MESSAGES.key } });
  });

  it("keeps tab, line feed and carriage return, and valid non-BMP characters", async () => {
    const { source, post } = await prospectPartner();
    const answer = await post(completeProspect(source, "good-text", { first_name: "Ri\tta\r\n", last_name: "Renter 🏠" }));
    expect(answer.status).toBe(200);
    expect(answer.body.prospect).toMatchObject({ first_name: "Ri\tta", last_name: "Renter 🏠" });
  });

  it("refuses a body nested deeper than the limit instead of failing to store it", async () => {
    const { source, post } = await prospectPartner();
    let deep: unknown = "x";
    for (let depth = 0; depth < MAX_NESTING + 5; depth++) deep = [deep];
    const answer = await post(completeProspect(source, "deep", { authorized_members: [{ notes: deep }] }));
    expect(answer.status).toBe(422);
    expect(Object.values(answer.body.prospect as Record<string, string>)).toEqual([TEXT_MESSAGES.nesting]);
  });

  it("checks only after authentication: an unauthenticated caller gets 401", async () => {
    const { source, base } = await prospectPartner();
    const answer = await call("POST", `${base}/prospects`, { body: { prospect: completeProspect(source, "anon", { first_name: "\u0000" }) } });
    expect(answer).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it("fails only the collection item that carries it (spec Common rules 5)", async () => {
    const { base, token } = await prospectPartner();
    const item = (id: string, displayName: string) => ({
      external_system_id: id,
      display_name: displayName,
      routing_number: "021000021",
      account_number: "123",
    });
    const answer = await call("POST", `${base}/bank_accounts`, { token, body: [item("ba-bad", "Main\u0000"), item("ba-good", "Main")] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      results: [
        { external_system_id: "ba-bad", action: "failed", errors: { display_name: [TEXT_MESSAGES.control] } },
        { external_system_id: "ba-good", action: "created" },
      ],
      meta: { created: 1, updated: 0, failed: 1 },
    });
  });

  it("answers the owner route's field-level 422", async () => {
    const client = await newClient();
    const answer = await call("POST", "/api/partners/property_owners", { token: await client.token(), body: { external_org_id: "org\ud800", name: "X" } });
    expect(answer).toMatchObject({
      status: 422,
      body: { status_code: 422, error: "Property owner is invalid", errors: { external_org_id: [TEXT_MESSAGES.surrogate] } },
    });
  });

  it("answers the token exchange's own 400 (it has no 422)", async () => {
    const answer = await call("POST", "/api/token", {
      body: { grant_type: "client_credentials", client_id: "c\u0000", client_secret: "s", audience: "a" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("client_id") });
  });

  it("answers 422 on the ingestion gateway instead of 202 for an event that cannot be stored, and stores nothing", async () => {
    const { owner, source } = await prospectPartner();
    const ingestion = await newClient({ gateway: "ingestion" });
    await grant(ingestion, owner.id);
    const event = { type: "prospect.upserted", owner_slug: owner.slug, source, source_prospect_id: "i-1", data: { first_name: "\u0000" } };
    expect(await call("POST", "/ingest/events", { body: event })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    const answer = await call("POST", "/ingest/events", { token: await ingestion.token(), body: event });
    expect(answer).toMatchObject({
      status: 422,
      body: { status_code: 422, error: "Event is invalid", errors: { "data.first_name": [TEXT_MESSAGES.control] } },
    });
    const stored = await (await getDb()).select().from(ingestionEvents).where(eq(ingestionEvents.clientId, ingestion.clientId));
    expect(stored).toEqual([]);
  });
});

describe("bad text in path and query parameters (docs/decisions.md, Requests and errors)", () => {
  it("answers 422 naming a path parameter that decodes to a control character or a lone surrogate", async () => {
    const { source, base, token, owner } = await prospectPartner();
    const nul = await call("GET", `${base}/prospects/${source}/p%00`, { token });
    expect(nul).toMatchObject({ status: 422, body: { status_code: 422, errors: { source_prospect_id: [TEXT_MESSAGES.control] } } });
    const slug = await call("GET", `/api/partners/${owner.slug}%01/prospects/${source}/p`, { token });
    expect(slug).toMatchObject({ status: 422, body: { errors: { owner_slug: [TEXT_MESSAGES.control] } } });
    const moveOut = await call("GET", `${base}/move_outs/1%00`, { token });
    expect(moveOut).toMatchObject({ status: 422, body: { errors: { id: [TEXT_MESSAGES.control] } } });
    // Percent-encoding that is not UTF-8 at all is a malformed path: 400 before any route, as the
    // web process always answered it (e2e/malformed-paths.spec.ts) and now the tests' door does too.
    expect((await call("GET", `${base}/prospects/${source}/%ZZ`, { token })).status).toBe(400);
    expect((await call("GET", `/api/partners/%ZZ/prospects/${source}/p`, { token })).status).toBe(400);
  });

  it("answers 422 naming a query parameter", async () => {
    const { owner, token } = await prospectPartner();
    const answer = await call("DELETE", `/api/residents/reset?owner_slug=${owner.slug}&email=a%00b@example.com`, { token });
    expect(answer).toMatchObject({ status: 422, body: { status_code: 422, error: "Reset request is invalid", errors: { email: [TEXT_MESSAGES.control] } } });
  });
});
