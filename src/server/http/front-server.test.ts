import { describe, expect, it } from "vitest";
import { webMounts } from "../../composition/gateways";
import { mountFor } from "./front-server";

/** The door's mount table (docs/decisions.md "Structure: one door into the gateways"): which line takes a path. */
const served = (pathname: string) => mountFor(pathname, webMounts)?.path ?? "next";

describe("the door's mount table", () => {
  it("hands each gateway its whole prefix, the path itself included", () => {
    for (const path of ["/api", "/api/", "/api/token", "/api/partners/acme/prospects", "/api/partners/acme/", "/api//x", "/api/%ZZ", "/api/docs/"]) {
      expect(served(path), path).toBe("/api");
    }
    for (const path of ["/ingest", "/ingest/events", "/ingest/x/y"]) expect(served(path), path).toBe("/ingest");
  });

  it("serves the docs before the gateway, each at its own path", () => {
    expect(served("/api/openapi.json")).toBe("/api/openapi.json");
    expect(served("/api/openapi.json/x")).toBe("/api");
    expect(served("/api/docs")).toBe("/api/docs");
    expect(served("/api/docs/assets/swagger-ui.css")).toBe("/api/docs/assets");
    expect(served("/api/docsx")).toBe("/api");
  });

  it("mounts the console's tRPC endpoint, and leaves the rest of the console to Next.js", () => {
    expect(served("/console/api/trpc/owners.list,prospects.search")).toBe("/console/api/trpc");
    for (const path of [
      "/console",
      "/console/api/auth/session",
      "/console/api/trpcx",
      "/enroll/a/b/c/d",
      "/documents/x.zip",
      "/demo",
      "/",
      "/apis/x",
      "/ingestion",
    ]) {
      expect(served(path), path).toBe("next");
    }
  });

  it("lists a longer path before any prefix that would take it", () => {
    webMounts.forEach((mount, index) => {
      const earlier = webMounts.slice(0, index).find((other) => mountFor(mount.path, [other]));
      expect(earlier?.path, mount.path).toBeUndefined();
    });
  });

  it("marks the gateways, which bound and count their own requests, and nothing else", () => {
    expect(webMounts.filter((mount) => mount.gateway).map((mount) => mount.path)).toEqual(["/api", "/ingest"]);
  });
});
