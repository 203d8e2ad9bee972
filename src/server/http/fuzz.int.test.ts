import type { AnyRouter } from "@trpc/server";
import { generateOpenApiDocument } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { handleIngestApi, handlePartnerApi, partnerOpenApiDocument } from "../../composition/gateways";
import { ingestApiRouter, partnerApiRouter } from "../../composition/router";
import { signRequest } from "../../features/auth/request-signature";
import { prospectPartner } from "../../features/prospects/prospect-test-helpers";
import { createProvider } from "../../features/webhooks/providers";
import { grant, newClient } from "../../test/factories";
import { casesFor, type FuzzCase, type FuzzRoute, type Json, sampleOf } from "../../test/fuzz-cases";
import { call } from "../../test/http";
import { completeProspectFields } from "../../test/samples";
import { getDb } from "../db/client";
import type { Meta } from "../trpc/init";
import { documentedErrors } from "./openapi";

/**
 * Issue 9 item 6: every route of both gateways, enumerated from the routers (a new route is fuzzed
 * without touching this file), gets malformed requests in every field position, path and query
 * parameter, with a token holding every scope and a valid request signature. No answer may be a
 * 5xx, and every answer must be one the route documents, in its documented shape.
 */

type Procedure = { _def: { meta?: Meta } };
type Answer = { status: number; body: unknown; label: string };

function routesOf(router: AnyRouter, doc: Json): Array<{ meta: Meta; route: Omit<FuzzRoute, "pathValues" | "body"> & { bodySchema?: Json } }> {
  return Object.values(router._def.procedures as Record<string, Procedure>).flatMap(({ _def: { meta } }) => {
    if (!meta?.openapi) return [];
    const { method, path } = meta.openapi;
    const operation = ((doc.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    const parameters = (operation?.parameters ?? []) as Array<{ in: string; name: string }>;
    const requestBody = operation?.requestBody as { content: Record<string, { schema: Json }> } | undefined;
    return [
      {
        meta,
        route: {
          method,
          path,
          query: parameters.filter((p) => p.in === "query").map((p) => p.name),
          bodySchema: requestBody?.content["application/json"]?.schema,
        },
      },
    ];
  });
}

async function fixture() {
  const partner = await prospectPartner();
  const { owner, source, base, token, client } = partner;
  await partner.post(completeProspectFields(source, "p-1"));
  const endpoint = await call<{ endpoint: { id: string } }>("POST", `${base}/webhooks/endpoints`, {
    token,
    body: { endpoint: { name: "fuzz", destination_url: "https://localhost:9/hook", events: ["prospect.ready"] } },
  });
  const moveOut = await call<{ move_out: { move_out_id: number } }>("POST", `${base}/move_outs`, {
    token,
    body: {
      external_id: "mo-1",
      move_out_date: "2026-12-01",
      property: { address_line_one: "10 Main St", address_city: "Austin", address_state: "TX", address_zip: "78701" },
      residents: [{ role: "primary", name: "Rita Renter" }],
    },
  });
  const provider = `prov_${owner.slug.replaceAll("-", "_")}`.slice(0, 40);
  await (await getDb()).transaction((tx) => createProvider(tx, { code: provider, clientId: client.clientId, ownerSlugs: [owner.slug] }));
  const ingestion = await newClient({ gateway: "ingestion" });
  await grant(ingestion, owner.id);
  return {
    partner,
    ingestionToken: await ingestion.token(),
    pathValues: {
      owner_slug: owner.slug,
      source,
      source_prospect_id: "p-1",
      endpoint_id: endpoint.body.endpoint.id,
      provider,
      id: "", // by route, below
    },
    moveOutId: String(moveOut.body.move_out.move_out_id),
    endpointId: endpoint.body.endpoint.id,
  };
}

/** Valid bodies where the generated sample would stop at the first check; other routes use the schema. */
function validBody(path: string, source: string, generated: unknown): unknown {
  if (path.endsWith("/prospects")) return { prospect: completeProspectFields(source, "p-1") };
  if (path.endsWith("/bank_accounts")) return [{ external_system_id: "ba-f", display_name: "Main", routing_number: "021000021", account_number: "12345" }];
  if (path.endsWith("/properties"))
    return [{ external_system_id: "b1", building_name: "Building One", address: { line_one: "10 Main St", city: "Austin", state: "TX", zip: "78701" } }];
  if (path.endsWith("/units")) return [{ external_system_id: "u1", property_external_id: "b1", name: "101" }];
  if (path === "/events")
    return { type: "prospect.upserted", source, source_prospect_id: "p-2", occurred_at: "2026-11-20T10:00:00Z", data: { first_name: "Rita" } };
  return generated;
}

function shapeProblem(answer: Answer, meta: Meta): string | undefined {
  const { status, body } = answer;
  const allowed = new Set([200, 201, 202, 404, ...documentedErrors(meta)]);
  if (status >= 500) return "5xx";
  if (!allowed.has(status)) return `undocumented status ${status}`;
  if (status < 300) return undefined;
  const b = body as Json;
  if (typeof b !== "object" || b === null) return "error body is not a JSON object";
  if (status === 401 || status === 403) if (b.message === "Unauthorized" || b.message === "Forbidden") return undefined;
  // The wrapper's own answers (decisions: Requests and errors) have the common shape on every route.
  const wrapper = [400, 413, 415].includes(status) && b.status_code === status && typeof b.error === "string";
  if (meta.inputErrors?.kind === "oauth" && !wrapper)
    return typeof b.error === "string" && typeof b.error_description === "string" ? undefined : "not an OAuth error";
  if (b.status_code !== status || typeof b.error !== "string") return "not {status_code, error}";
  if (status !== 422) return undefined;
  const style = meta.inputErrors;
  const fields = (style?.kind === "resource" ? b[style.key] : b.errors) as Json | undefined;
  if (!fields || typeof fields !== "object" || Object.keys(fields).length === 0) return "422 without its fields";
  const perField = Object.values(fields).every((v) => (style?.kind === "resource" ? typeof v === "string" : Array.isArray(v)));
  return perField ? undefined : "422 fields not in the route's shape";
}

async function send(fuzz: FuzzCase, gateway: "partner" | "ingest", token: string, secret: string): Promise<Answer> {
  const url = `http://localhost:3999${gateway === "partner" ? "/api" : "/ingest"}${fuzz.path}`;
  const headers = new Headers(fuzz.headers);
  headers.set("authorization", `Bearer ${token}`);
  if (gateway === "partner") {
    const parsed = new URL(url);
    const rawBody = fuzz.body === undefined ? "" : typeof fuzz.body === "string" ? fuzz.body : new TextDecoder().decode(fuzz.body);
    headers.set("x-request-signature", signRequest(secret, { method: fuzz.method, pathWithQuery: parsed.pathname + parsed.search, rawBody }));
  }
  const request = new Request(url, { method: fuzz.method, headers, body: fuzz.body as BodyInit | undefined });
  const response = await (gateway === "partner" ? handlePartnerApi(request) : handleIngestApi(request));
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // kept as text: the shape check reports it
  }
  return { status: response.status, body, label: fuzz.label };
}

describe("fuzzing every route of both gateways (issue 9 item 6)", () => {
  it("answers ≥ 1,000 malformed requests with documented 4xx/2xx answers and no 5xx", { timeout: 120_000 }, async () => {
    const f = await fixture();
    const partnerDoc = partnerOpenApiDocument() as unknown as Json;
    const ingestDoc = generateOpenApiDocument(ingestApiRouter, { title: "ingest", version: "1", baseUrl: "/ingest" }) as unknown as Json;
    const gateways = [
      { gateway: "partner" as const, routes: routesOf(partnerApiRouter, partnerDoc), doc: partnerDoc, token: f.partner.token },
      { gateway: "ingest" as const, routes: routesOf(ingestApiRouter, ingestDoc), doc: ingestDoc, token: f.ingestionToken },
    ];
    const problems: string[] = [];
    let sent = 0;
    for (const { gateway, routes, doc, token } of gateways) {
      for (const { meta, route } of routes) {
        const names = Array.from(route.path.matchAll(/\{(\w+)\}/g), (m) => m[1]);
        const idFor = route.path.includes("/move_outs/") ? f.moveOutId : route.path.includes("/deliveries/") ? "wd_0" : f.endpointId;
        const pathValues = Object.fromEntries(names.map((name) => [name, name === "id" ? idFor : (f.pathValues as Record<string, string>)[name]]));
        const body = route.bodySchema ? validBody(route.path, f.partner.source, sampleOf(route.bodySchema, doc)) : undefined;
        const cases = casesFor({ ...route, pathValues, body });
        // A few at a time: the database work overlaps, the order within a route stays readable.
        for (let start = 0; start < cases.length; start += 4) {
          const answers = await Promise.all(cases.slice(start, start + 4).map((c) => send(c, gateway, token, f.partner.client.secret)));
          sent += answers.length;
          for (const answer of answers) {
            const problem = shapeProblem(answer, meta);
            if (problem) problems.push(`${problem}: ${answer.label} → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 200)}`);
          }
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(1000);
  });
});
