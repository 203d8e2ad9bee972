import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type FastPathRules, fastPathRulesOf, gatewayFor } from "./front-server";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A build directory holding the manifests the front server reads, as `next build` writes them. */
function buildDir(overrides: { appRoutes?: string[]; routes?: object; proxy?: string[] } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "front-rules-"));
  dirs.push(dir);
  const appRoutes = overrides.appRoutes ?? [
    "/api/[...path]",
    "/api/docs",
    "/api/docs/assets/[file]",
    "/api/openapi.json",
    "/ingest/[...path]",
    "/healthz",
    "/",
  ];
  fs.writeFileSync(path.join(dir, "app-path-routes-manifest.json"), JSON.stringify(Object.fromEntries(appRoutes.map((r) => [`${r}/route`, r]))));
  const routes = overrides.routes ?? {
    basePath: "",
    redirects: [{ source: "/:path+/", destination: "/:path+", internal: true, statusCode: 308 }],
    headers: [],
    rewrites: { beforeFiles: [], afterFiles: [], fallback: [] },
  };
  fs.writeFileSync(path.join(dir, "routes-manifest.json"), JSON.stringify(routes));
  fs.mkdirSync(path.join(dir, "server"));
  // The proxy's matcher as Next.js 16 compiles src/proxy.ts's `config.matcher`.
  const proxy = overrides.proxy ?? [
    "^(?:\\/(_next\\/data\\/[^/]{1,}))?(?:\\/((?!_next\\/static|_next\\/image|(?:api|ingest)\\/[^%]*$).*))(\\.json|\\.rsc|\\.segments\\/.+\\.segment\\.rsc)?[\\/#\\?]?$",
  ];
  fs.writeFileSync(
    path.join(dir, "server", "functions-config-manifest.json"),
    JSON.stringify({ version: 1, functions: { "/_middleware": { runtime: "nodejs", matchers: proxy.map((regexp) => ({ regexp })) } } }),
  );
  fs.writeFileSync(path.join(dir, "server", "middleware-manifest.json"), JSON.stringify({ version: 3, middleware: {}, functions: {} }));
  return dir;
}

describe("which requests the front server hands straight to a gateway", () => {
  const rules = fastPathRulesOf(buildDir());

  it("takes plain gateway paths, with or without a query", () => {
    expect(gatewayFor("/api/partners/acme/prospects", rules)).toBe("/api");
    expect(gatewayFor("/api/partners/acme/prospects/src_1/p-1?x=1&y=%ZZ", rules)).toBe("/api");
    expect(gatewayFor("/api/token", rules)).toBe("/api");
    expect(gatewayFor("/ingest/events", rules)).toBe("/ingest");
    expect(gatewayFor("/api/nope", rules)).toBe("/api");
  });

  it("leaves Next.js every path it would not route to the catch-all unchanged", () => {
    for (const url of [
      "/api/docs",
      "/api/docs/assets/swagger-ui.css",
      "/api/openapi.json",
      "/api",
      "/api/",
      "/api/partners/acme/",
      "/api//partners",
      "/api/partners/%61cme",
      "/api/%ZZ",
      "/api/partners/../token",
      "/api/./token",
      "/api/a b",
      "/api/a\\b",
      "/apis/x",
      "/ingestion/x",
      "/healthz",
      "/console",
      "/",
      "http://localhost/api/token",
      "*",
    ])
      expect(gatewayFor(url, rules), url).toBeUndefined();
  });

  it("follows the proxy's matchers: a gateway path the proxy runs on goes through Next.js", () => {
    const everything = fastPathRulesOf(buildDir({ proxy: ["^/.*$"] }));
    expect(gatewayFor("/api/token", everything)).toBeUndefined();
    const none = fastPathRulesOf(buildDir({ proxy: [] }));
    expect(gatewayFor("/api/token", none)).toBe("/api");
  });

  it("turns the fast path off where the build could send a gateway path elsewhere", () => {
    const off = (rules: FastPathRules) => [gatewayFor("/api/token", rules), gatewayFor("/ingest/events", rules)];
    // A dynamic route beside the catch-all could take any path.
    expect(off(fastPathRulesOf(buildDir({ appRoutes: ["/api/[...path]", "/api/[version]/x", "/ingest/[...path]"] })))).toEqual([undefined, "/ingest"]);
    // No catch-all route: nothing to hand over.
    expect(off(fastPathRulesOf(buildDir({ appRoutes: ["/api/docs"] })))).toEqual([undefined, undefined]);
    // Custom rewrites, redirects, headers or a base path change what Next.js would do.
    const customs = [
      { basePath: "", redirects: [], headers: [], rewrites: { beforeFiles: [{ source: "/api/:p*", destination: "/x" }], afterFiles: [], fallback: [] } },
      { basePath: "", redirects: [{ source: "/api/old", destination: "/api/new", statusCode: 308 }], headers: [], rewrites: [] },
      { basePath: "", redirects: [], headers: [{ source: "/api/:p*", headers: [] }], rewrites: [] },
      { basePath: "/pis", redirects: [], headers: [], rewrites: [] },
    ];
    for (const routes of customs) expect(off(fastPathRulesOf(buildDir({ routes })))).toEqual([undefined, undefined]);
    // No build at all.
    expect(off(fastPathRulesOf(path.join(os.tmpdir(), "no-such-build")))).toEqual([undefined, undefined]);
  });
});
