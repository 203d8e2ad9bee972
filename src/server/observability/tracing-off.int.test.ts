import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeProspect, prospectPartner } from "../../features/prospects/prospect-test-helpers";
import { call } from "../../test/http";
import { startReceiver } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { startOtlpReceiver } from "../../test/otlp-receiver";
import { resetConfig } from "../config";
import { getDb } from "../db/client";
import { logger } from "../log";
import { startTracing, tracingOn } from "./tracing";

/** Without `OTEL_EXPORTER_OTLP_ENDPOINT` traces are off (docs/decisions.md, Traces): no SDK, nothing sent, nothing carried. */
const collector = await startOtlpReceiver();
delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
Object.assign(process.env, { LOG_LEVEL: "info" });
resetConfig();

const logLines: Record<string, unknown>[] = [];
beforeAll(() => {
  const stream = (logger() as unknown as Record<symbol, { write: (line: string) => boolean }>)[pino.symbols.streamSym];
  stream.write = (line: string) => {
    logLines.push(JSON.parse(line));
    return true;
  };
});
afterAll(() => collector.close());

describe("traces off", () => {
  it("starts no SDK, adds no trace field to jobs, writes no trace id and sends nothing", async () => {
    expect(await startTracing()).toBe(false);
    expect(tracingOn()).toBe(false);
    const partner = await prospectPartner();
    const hook = await startReceiver();
    try {
      await call("POST", `${partner.base}/webhooks/endpoints`, {
        token: partner.token,
        body: { endpoint: { name: "ready", destination_url: hook.url, events: ["prospect.ready"] } },
      });
      const posted = await partner.post(completeProspect(partner.source, "off-1"), { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" });
      expect(posted.status).toBe(200);
      const payloads = await (await getDb()).execute<{ payload: Record<string, unknown> }>(sql`select payload from graphile_worker._private_jobs`);
      expect(payloads.length).toBeGreaterThan(0);
      for (const { payload } of payloads) expect(payload).not.toHaveProperty("_trace");
      await runDueJobs();
      await runDueJobs();
      expect(hook.received.map((r) => JSON.parse(r.rawBody).event)).toEqual(["prospect.ready"]);
    } finally {
      await hook.close();
    }
    // No tracer provider, context manager or propagator was ever registered with the API.
    const registry = (globalThis as unknown as Record<symbol, Record<string, unknown> | undefined>)[Symbol.for("opentelemetry.js.api.1")];
    expect(registry?.trace).toBeUndefined();
    expect(registry?.context).toBeUndefined();
    const line = logLines.find((entry) => entry.msg === "request" && entry.requestId === undefined);
    expect(line).toBeUndefined();
    expect(logLines.filter((entry) => entry.msg === "request").length).toBeGreaterThan(0);
    expect(logLines.filter((entry) => "trace_id" in entry)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(collector.requests()).toBe(0);
  });
});
