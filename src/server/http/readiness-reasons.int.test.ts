import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { call } from "../../test/http";
import { resetConfig } from "../config";
import { createWorkerHealthServer } from "./worker-health-server";

afterEach(() => {
  delete process.env.METRICS_TOKEN;
  resetConfig();
});

const CHECKS = ["database", "migrations", "queue", "shutdown", "worker"];

describe("/readyz tells its reasons only to the metrics token (docs/decisions.md, Second security review)", () => {
  it("answers the door's public caller {status} only, and the checks with Bearer METRICS_TOKEN", async () => {
    process.env.METRICS_TOKEN = "readiness-token-0123456789";
    resetConfig();
    const open = await call("GET", "/readyz");
    expect([200, 503]).toContain(open.status);
    expect(Object.keys(open.body)).toEqual(["status"]);
    const wrong = await call("GET", "/readyz", { token: "not-the-token" });
    expect(Object.keys(wrong.body)).toEqual(["status"]);
    const trusted = await call<{ status: string; checks: Record<string, string> }>("GET", "/readyz", { token: "readiness-token-0123456789" });
    expect(trusted.status).toBe(open.status);
    expect(Object.keys(trusted.body.checks).sort()).toEqual(CHECKS);
  });

  it("answers {status} only without METRICS_TOKEN set, whatever the header says", async () => {
    const open = await call("GET", "/readyz", { token: "anything" });
    expect(Object.keys(open.body)).toEqual(["status"]);
  });

  it("answers the worker's health port the same way", async () => {
    process.env.METRICS_TOKEN = "readiness-token-0123456789";
    resetConfig();
    const server = createWorkerHealthServer();
    await server.listen(0);
    try {
      const base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
      const open = await (await fetch(`${base}/readyz`)).json();
      expect(Object.keys(open)).toEqual(["status"]);
      const trusted = await (await fetch(`${base}/readyz`, { headers: { authorization: "Bearer readiness-token-0123456789" } })).json();
      expect(Object.keys(trusted.checks).sort()).toEqual(CHECKS);
    } finally {
      await server.close();
    }
  });
});
