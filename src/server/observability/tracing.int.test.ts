import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeProspect, prospectPartner } from "../../features/prospects/prospect-test-helpers";
import { webhookDeliveryReap } from "../../features/webhooks/webhook_delivery__reap";
import { call } from "../../test/http";
import { startReceiver } from "../../test/https-receiver";
import { queuedJobs, runDueJobs } from "../../test/jobs";
import { type ReceivedSpan, startOtlpReceiver } from "../../test/otlp-receiver";
import { resetConfig } from "../config";
import { getDb } from "../db/client";
import { addJob } from "../jobs/define-task";
import { logger } from "../log";
import { startTracing, stopTracing, tracingOn } from "./tracing";

/**
 * Traces (docs/decisions.md, Traces) against a local OTLP/HTTP collector: a partner's POST, the
 * eligibility job it caused and the `prospect.ready` delivery attempt form one trace.
 */
const collector = await startOtlpReceiver();
Object.assign(process.env, {
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
  OTEL_BSP_SCHEDULE_DELAY: "50",
  OTEL_SERVICE_NAME: "pis-test",
  LOG_LEVEL: "info",
});
resetConfig();

/** The log's lines, read at pino's own stream (written nowhere else). */
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  expect(await startTracing()).toBe(true);
  const stream = (logger() as unknown as Record<symbol, { write: (line: string) => boolean }>)[pino.symbols.streamSym];
  stream.write = (line: string) => {
    logLines.push(JSON.parse(line));
    return true;
  };
});
afterAll(async () => {
  await stopTracing();
  await collector.close();
});

async function spansUntil(done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  for (let waited = 0; waited < 10_000 && !done(collector.spans); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return collector.spans;
}

describe("traces (decisions §14 Traces)", () => {
  it("shows POST prospect → eligibility job → prospect.ready delivery attempt as one trace, with route templates and no slug or secret", async () => {
    expect(tracingOn()).toBe(true);
    const partner = await prospectPartner();
    const hook = await startReceiver();
    try {
      const endpoint = await call("POST", `${partner.base}/webhooks/endpoints`, {
        token: partner.token,
        body: { endpoint: { name: "ready", destination_url: `${hook.url}/path-secret?key=query-secret`, events: ["prospect.ready"] } },
      });
      expect(endpoint.status).toBe(201);
      // An incoming traceparent: a link of the request's span, never its parent (docs/decisions.md,
      // "Second security review"): the trace and what the jobs carry are ours.
      const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
      const posted = await partner.post(completeProspect(partner.source, "trace-1"), { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` });
      expect(posted.status).toBe(200);
      await runDueJobs(); // eligibility (emits prospect.ready)
      await runDueJobs(); // delivers prospect.ready
      expect(hook.received.map((r) => JSON.parse(r.rawBody).event)).toEqual(["prospect.ready"]);

      // The attempt's span and the delivery job's, which ends after it (and may come in a later export).
      const spans = await spansUntil((all) =>
        all.some((span) => span.name === "POST" && span.attributes["http.response.status_code"] === 200 && all.some((job) => job.spanId === span.parentSpanId)),
      );
      const byId = new Map(spans.map((span) => [span.spanId, span]));
      const ancestors = (span: ReceivedSpan) => {
        const chain: ReceivedSpan[] = [];
        for (let at = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined)
          chain.push(at);
        return chain;
      };

      const request = spans.find((span) => span.name === "POST /partners/{owner_slug}/prospects");
      expect(request).toBeDefined();
      if (!request) return;
      expect(request.traceId).not.toBe(callerTrace);
      expect(request.parentSpanId ?? "").toBe("");
      expect(request.links).toEqual([expect.objectContaining({ traceId: callerTrace, spanId: "00f067aa0ba902b7" })]);
      expect(spans.filter((span) => span.traceId === callerTrace)).toEqual([]);
      expect(request.service).toBe("pis-test");
      expect(request.attributes).toMatchObject({
        "http.request.method": "POST",
        "http.route": "/partners/{owner_slug}/prospects",
        "http.response.status_code": 200,
        "pis.request_id": posted.headers.get("x-request-id"),
      });
      const trace = spans.filter((span) => span.traceId === request.traceId);
      // Statements and transactions under the request, with no query text or parameters.
      const statements = trace.filter((span) => span.attributes["db.system.name"] === "postgresql" && ancestors(span).includes(request));
      expect(statements.some((span) => span.name === "transaction")).toBe(true);
      expect(statements.some((span) => span.name.startsWith("INSERT ") && span.attributes["db.operation.name"] === "INSERT")).toBe(true);
      // The eligibility job continues the request's trace; the delivery job the eligibility job's.
      const eligibility = trace.find((span) => span.name === "prospect__check_eligibility process");
      expect(eligibility && ancestors(eligibility)).toContain(request);
      if (!eligibility) return;
      expect(eligibility.attributes).toMatchObject({ "messaging.system": "graphile_worker", "messaging.destination.name": "prospect__check_eligibility" });
      const delivery = trace.find((span) => span.name === "webhook_delivery__attempt process" && ancestors(span).includes(eligibility));
      expect(delivery).toBeDefined();
      const attempt = trace.find((span) => span.name === "POST" && span.parentSpanId === delivery?.spanId);
      expect(attempt?.attributes).toMatchObject({ "http.request.method": "POST", "http.response.status_code": 200, "url.full": new URL(hook.url).origin });
      // Nothing a partner must keep to itself, nor a slug, reaches the collector.
      const secrets = [partner.owner.slug, partner.token, partner.client.secret, "path-secret", "query-secret", "trace-1"];
      const values = spans.flatMap((span) => [span.name, ...Object.values(span.attributes).map(String)]);
      for (const secret of secrets) expect(values.filter((value) => value.includes(secret))).toEqual([]);
      // The request's access-log line carries its trace.
      const line = logLines.find((entry) => entry.msg === "request" && entry.requestId === posted.headers.get("x-request-id"));
      expect(line).toMatchObject({ trace_id: request.traceId, span_id: request.spanId });
    } finally {
      await hook.close();
    }
  });

  it("starts each run of a recurring task in a trace of its own", async () => {
    await addJob(await getDb(), webhookDeliveryReap, {}, { jobKey: "recurring:webhook_delivery__reap" });
    await runDueJobs();
    const spans = await spansUntil((all) => all.some((span) => span.name === "webhook_delivery__reap process"));
    const run = spans.find((span) => span.name === "webhook_delivery__reap process");
    expect(run).toBeDefined();
    expect(run?.parentSpanId || undefined).toBeUndefined();
    // The next run, queued by this one, carries no trace: it will not be this run's child.
    const [next] = await queuedJobs("webhook_delivery__reap");
    expect(next?.payload).toEqual({});
  });
});
