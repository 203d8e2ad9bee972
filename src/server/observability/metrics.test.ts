import { randomBytes, randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ingestApiRouter, partnerApiRouter } from "../../composition/router";
import type { Meta } from "../trpc/init";
import { methodLabel, pageRoute, routeTemplate, UNMATCHED_ROUTE } from "./metrics";

/**
 * docs/decisions.md "Hardening: metrics": no label value can be an id, a slug or a token. Gateway routes are
 * their OpenAPI templates; every other path is one of a few fixed prefixes; methods are a fixed set.
 */

const id = () => [randomBytes(6).toString("hex"), String(randomInt(1, 1e9)), `own-${randomBytes(3).toString("hex")}`][randomInt(0, 3)];
const segment = () => [id(), "console", "enroll", "api", "documents", "x.zip", "%2F..", ""][randomInt(0, 8)];

describe("metric labels", () => {
  it("labels every gateway route by its template: literal words and {parameters} only", () => {
    for (const [prefix, router] of [
      ["/api", partnerApiRouter],
      ["/ingest", ingestApiRouter],
    ] as const) {
      const procedures = Object.values(router._def.procedures as Record<string, { _def: { meta?: Meta } }>);
      const paths = procedures.flatMap((procedure) => (procedure._def.meta?.openapi?.path ? [procedure._def.meta.openapi.path] : []));
      expect(paths.length).toBeGreaterThan(prefix === "/api" ? 10 : 0);
      for (const path of paths) {
        expect(routeTemplate(prefix, path)).toMatch(/^\/(api|ingest)(\/([a-z_]+|\{[a-z_]+\}))+$/);
      }
    }
    expect(routeTemplate("/api", undefined)).toBe(UNMATCHED_ROUTE);
  });

  it("labels any other path by a fixed prefix, never by what follows it", () => {
    const labels = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const ids = Array.from({ length: randomInt(0, 5) }, id);
      const path = `/${Array.from({ length: randomInt(1, 6) }, (_, n) => ids[n] ?? segment()).join("/")}`;
      const label = pageRoute(path);
      labels.add(label);
      for (const raw of ids) expect(label).not.toContain(raw);
    }
    for (const label of labels) expect(label).toMatch(/^(unmatched|\/[a-z_/.]*)$/);
    expect(pageRoute("/console/api/trpc/prospects.search,prospects.detail")).toBe("/console/api/trpc");
    expect(pageRoute("/enroll/eyJhbGciOi.abc")).toBe("/enroll");
    expect(pageRoute("/documents/3f9a0c.zip")).toBe("/documents");
    expect(pageRoute("/consoleX")).toBe(UNMATCHED_ROUTE);
    expect(pageRoute("/")).toBe("/");
  });

  it("labels methods from a fixed set", () => {
    expect(methodLabel("post")).toBe("POST");
    expect(methodLabel("PROPFIND")).toBe("other");
    expect(methodLabel(randomBytes(8).toString("hex"))).toBe("other");
  });
});
