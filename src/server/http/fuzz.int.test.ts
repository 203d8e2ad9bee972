import { generateOpenApiDocument } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { partnerOpenApiDocument } from "../../composition/gateways";
import { ingestApiRouter, partnerApiRouter } from "../../composition/router";
import { signRequest } from "../../features/auth/request-signature";
import { casesFor, type FuzzCase, type Json, sampleOf } from "../../test/fuzz-cases";
import { throughDoor } from "../../test/http";
import { fixture, routesOf, validBody } from "../../test/route-fixture";
import type { Meta } from "../trpc/init";
import { documentedErrors } from "./openapi";

/**
 * docs/decisions.md, Requests and errors (text no field may hold): every route of both gateways, enumerated from the routers (a new route is fuzzed
 * without touching this file), gets malformed requests in every field position, path and query
 * parameter, with a token holding every scope and a valid request signature. No answer may be a
 * 5xx, and every answer must be one the route documents, in its documented shape.
 */

type Answer = { status: number; body: unknown; label: string };

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
  const response = await throughDoor(request);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // kept as text: the shape check reports it
  }
  return { status: response.status, body, label: fuzz.label };
}

describe("fuzzing every route of both gateways (docs/decisions.md, Requests and errors)", () => {
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
