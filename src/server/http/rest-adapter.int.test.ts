import { describe, expect, it } from "vitest";
import { partnerOpenApiDocument } from "../../composition/gateways";
import { partnerApiRouter } from "../../composition/router";
import { PROSPECT_MESSAGES } from "../../features/prospects/messages";
import { prospectFields } from "../../features/prospects/schemas";
import { type Json, sampleOf } from "../../test/fuzz-cases";
import { call } from "../../test/http";
import { fixture, routesOf, validBody } from "../../test/route-fixture";
import { completeProspectFields } from "../../test/samples";

/**
 * What the REST wrapper relies on in trpc-to-openapi and zod (docs/decisions.md, Requests and errors). Each test fails if an
 * upgrade changes the behaviour: JSON bodies taken as sent (json-body.ts), query strings still
 * coerced where declared, array bodies as `{items}`, path parameters decoded exactly once, the
 * success status from `responseMeta`, and the wrapper's headers.
 */

/** Dotted paths of every number, integer or boolean property of a JSON Schema, nested objects included. */
function typedFields(schema: Json | undefined, doc: Json, path: string[] = []): Array<{ path: string[]; type: string }> {
  if (!schema) return [];
  if (typeof schema.$ref === "string")
    return typedFields(((doc.components as Json).schemas as Json)[schema.$ref.split("/").pop() as string] as Json, doc, path);
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options) return options.flatMap((option) => typedFields(option, doc, path));
  if (schema.type === "array") return typedFields(schema.items as Json, doc, path);
  if (schema.type === "object")
    return Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([key, child]) => typedFields(child, doc, [...path, key]));
  return ["number", "integer", "boolean"].includes(String(schema.type)) ? [{ path, type: String(schema.type) }] : [];
}

function setAt(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(Array.isArray(body) ? body[0] : body) as Json;
  let target = copy;
  for (const key of path.slice(0, -1)) {
    target[key] = typeof target[key] === "object" && target[key] !== null ? target[key] : {};
    target = target[key] as Json;
  }
  target[path[path.length - 1]] = value;
  return Array.isArray(body) ? [copy] : copy;
}

describe("the REST adapter on trpc-to-openapi's public API", () => {
  it("never coerces a JSON body: a string in any number or boolean field of any body route is refused, naming the field", async () => {
    const f = await fixture();
    const doc = partnerOpenApiDocument() as unknown as Json;
    let checked = 0;
    for (const { meta, route } of routesOf(partnerApiRouter, doc)) {
      if (!route.bodySchema || !meta.openapi) continue;
      const base = validBody(route.path, f.partner.source, sampleOf(route.bodySchema, doc));
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "id" ? f.endpointId : (f.pathValues as Record<string, string>)[name]));
      for (const field of typedFields(route.bodySchema, doc)) {
        const value = field.type === "boolean" ? "yes" : "12";
        const answer = await call<Json>(route.method, `/api${path}`, { token: f.partner.token, body: setAt(base, field.path, value) });
        const style = meta.inputErrors;
        const named = meta.arrayBody
          ? ((answer.body.results as Json[])?.[0]?.errors as Json | undefined)
          : ((style?.kind === "resource" ? answer.body[style.key] : answer.body.errors) as Json | undefined);
        const dotted = field.path.join(".");
        const name = style?.kind === "resource" && field.path[0] === style.key ? field.path.slice(1).join(".") : dotted;
        expect(answer.status, `${route.method} ${route.path} ${dotted}`).toBe(meta.arrayBody ? 200 : 422);
        expect(Object.keys(named ?? {}), `${route.method} ${route.path} ${dotted}`).toContain(name);
        checked++;
      }
    }
    // owners (3), prospects (5), move-outs (2), properties (2), bank accounts (1) at the time of writing.
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it("leaves shared schemas alone: after REST requests, the prospect fields the ingestion job uses still refuse strings", async () => {
    const f = await fixture();
    const prospect = await f.partner.post({ ...completeProspectFields(f.partner.source, "typed"), has_ssn: "true", monthly_rent_cents: "12" });
    expect(prospect.body).toMatchObject({
      status_code: 422,
      error: PROSPECT_MESSAGES.invalid,
      prospect: { has_ssn: expect.any(String), monthly_rent_cents: expect.any(String) },
    });
    expect(prospectFields.safeParse({ ...completeProspectFields(f.partner.source, "typed"), has_ssn: "yes" }).success).toBe(false);
    expect(prospectFields.safeParse({ ...completeProspectFields(f.partner.source, "typed"), monthly_rent_cents: "12" }).success).toBe(false);
  });

  it("still coerces declared query-string numbers, and refuses non-numbers there", async () => {
    const f = await fixture();
    const base = `/api/partners/${f.partner.owner.slug}/webhooks/endpoints/${f.endpointId}/deliveries`;
    expect(await call("GET", `${base}?limit=2`, { token: f.partner.token })).toMatchObject({ status: 200, body: { status_code: 200 } });
    expect(await call("GET", `${base}?limit=abc`, { token: f.partner.token })).toMatchObject({ status: 422, body: { errors: { limit: expect.any(Array) } } });
  });

  it("delivers a bare JSON array as `{items}`, and refuses an object where the array belongs", async () => {
    const f = await fixture();
    const path = `/api/partners/${f.partner.owner.slug}/bank_accounts`;
    const item = { external_system_id: "ba-arr", display_name: "Arr", routing_number: "021000021", account_number: "1" };
    expect(await call("POST", path, { token: f.partner.token, body: [item] })).toMatchObject({ status: 200, body: { meta: { created: 1 } } });
    expect(await call("POST", path, { token: f.partner.token, body: { item } })).toMatchObject({ status: 422, body: { error: "Batch is invalid" } });
  });

  it("decodes path parameters exactly once", async () => {
    const f = await fixture();
    const id = "p 1/x%41é+";
    expect((await f.partner.post(completeProspectFields(f.partner.source, id))).status).toBe(200);
    const read = await f.partner.get(id);
    expect(read).toMatchObject({ status: 200, body: { prospect: { source_prospect_id: id } } });
  });

  it("answers the procedure's status (201) through responseMeta, with X-Request-Id and Cache-Control on every answer", async () => {
    const f = await fixture();
    const created = await call("POST", "/api/partners/property_owners", {
      token: f.partner.token,
      body: { external_org_id: `org-${f.pathValues.provider}`, name: "Adapter" },
      headers: { "x-request-id": "req-adapter-1" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-request-id")).toBe("req-adapter-1");
    for (const answer of [created, await call("GET", "/api/no/such/route", { token: f.partner.token }), await call("GET", "/api/partners/x/prospects/a/b")]) {
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("x-request-id")).toBeTruthy();
    }
  });
});
