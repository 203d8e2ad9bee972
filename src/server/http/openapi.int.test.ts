import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { throughDoor } from "../../test/http";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[]; requestBody?: unknown }>>;
  components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, unknown> };
};

async function served(): Promise<Doc> {
  const response = await throughDoor(new Request("http://localhost/api/openapi.json"));
  expect(response.status).toBe(200);
  return response.json();
}

describe("GET /api/openapi.json", () => {
  it("documents every partner route with its statuses, bodies and the bearer scheme", async () => {
    const doc = await served();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } });
    const token = doc.paths["/token"].post;
    expect(token.security).toEqual([]);
    expect(Object.keys(token.responses).sort()).toEqual(["200", "400", "401", "413", "415", "429", "503"]);
    const owners = doc.paths["/partners/property_owners"].post;
    expect(Object.keys(owners.responses).sort()).toEqual(["200", "201", "400", "401", "403", "409", "413", "415", "422", "429", "503"]);
    expect(owners.security).toEqual([{ bearerAuth: [] }]);
    expect(JSON.stringify(owners.responses["401"])).toContain('"const":"Unauthorized"');
  });

  it("documents Idempotency-Key on every POST but the token exchange, with Idempotent-Replayed, 409 and the reused key's 422", async () => {
    const doc = await served();
    const posts = Object.entries(doc.paths).flatMap(([pathKey, methods]) => (methods.post ? [{ at: pathKey, operation: methods.post }] : []));
    expect(posts.length).toBeGreaterThan(5);
    for (const { at, operation } of posts) {
      const parameters = (operation as { parameters?: Array<{ name: string; in: string }> }).parameters ?? [];
      const key = parameters.find((parameter) => parameter.name === "Idempotency-Key");
      if (at === "/token") {
        expect(key, at).toBeUndefined();
        continue;
      }
      expect(key, at).toMatchObject({ in: "header", required: false, schema: { maxLength: 255 } });
      expect(operation.responses["409"], at).toBeDefined();
      expect(JSON.stringify(operation.responses["422"]), at).toContain("Idempotency-Key was used with another request");
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith("2"));
      for (const [status, response] of success) expect((response as { headers?: object }).headers, `${at} ${status}`).toHaveProperty("Idempotent-Replayed");
    }
  });

  it("documents on every route the 429 of the request limit with Retry-After and RateLimit-*, and RateLimit-* on every 2xx", async () => {
    const doc = await served();
    const operations = Object.entries(doc.paths).flatMap(([pathKey, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ at: `${method} ${pathKey}`, operation })),
    );
    expect(operations.length).toBeGreaterThan(10);
    const rateLimit = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
    for (const { at, operation } of operations) {
      const responses = operation.responses as Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
      expect(Object.keys(responses["429"]?.headers ?? {}).sort(), at).toEqual(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]);
      expect(JSON.stringify(responses["429"].content), at).toContain('"status_code"');
      for (const [status, response] of Object.entries(responses))
        if (status.startsWith("2")) expect(Object.keys(response.headers ?? {}), `${at} ${status}`).toEqual(expect.arrayContaining(rateLimit));
    }
  });

  it("documents on every route the 503 of a database outage with its Retry-After header", async () => {
    const doc = await served();
    const operations = Object.entries(doc.paths).flatMap(([pathKey, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ at: `${method} ${pathKey}`, operation })),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const { at, operation } of operations) {
      const unavailable = operation.responses["503"] as { headers?: Record<string, { required?: boolean; schema: { type: string } }> } | undefined;
      expect(unavailable, at).toBeDefined();
      expect(unavailable?.headers?.["Retry-After"], at).toMatchObject({ required: true, schema: { type: "integer" } });
    }
  });

  it("matches the committed snapshot, so a contract change shows up in review", async () => {
    await expect(`${JSON.stringify(await served(), null, 2)}\n`).toMatchFileSnapshot("./__snapshots__/openapi.json");
  });

  it("passes Redocly's recommended lint with no errors", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "openapi-")), "openapi.json");
    fs.writeFileSync(file, JSON.stringify(await served()));
    const bin = path.resolve("node_modules", ".bin", "redocly");
    const { stdout } = await promisify(execFile)(bin, ["lint", file, "--format=json"], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((failure: { stdout: string }) => ({ stdout: failure.stdout }));
    const report = JSON.parse(stdout.slice(stdout.indexOf("{")));
    const problems = (report.problems as Array<{ severity: string; message: string }>).filter((problem) => problem.severity === "error");
    expect(problems).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);
});

describe("GET /api/docs", () => {
  it("serves a reference page whose scripts all come from this origin", async () => {
    const page = await (await throughDoor(new Request("http://localhost/api/docs"))).text();
    expect(page).toContain('<div id="reference">');
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source.startsWith("/api/docs/assets/")).toBe(true);
  });
});
