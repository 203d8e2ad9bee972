import { context, isSpanContextValid, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * OpenTelemetry traces (docs/decisions.md, Traces): on only when OpenTelemetry's standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, exported as OTLP
 * over HTTP by the SDK, which reads the other standard variables itself (`OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_*`, `OTEL_TRACES_SAMPLER`, headers). Off, the SDK is never
 * loaded and every hook below is one boolean test: `@opentelemetry/api` alone does nothing.
 *
 * The hooks: a span per partner request (`inRequestSpan`, the REST gateway), per transaction and
 * statement (the database client), per job (`inJobSpan`, the task list) and per webhook attempt
 * (`inAttemptSpan`). A job carries the context that added it in its payload (`traceFields`), so a
 * request's trace continues into the jobs it caused and theirs in turn.
 */

type Tracing = { on: boolean; stop?: () => Promise<void> };
// Next.js bundles its pages apart from the modules scripts/serve.ts imports: one state per process.
const slot = globalThis as unknown as { [key: symbol]: Tracing };
const KEY = Symbol.for("pis.tracing");
slot[KEY] ??= { on: false };
const state = slot[KEY];

const SERVICE_NAME = "partner-integration-service";
const tracer = () => trace.getTracer(SERVICE_NAME);

export function tracingOn(): boolean {
  return state.on;
}

/** Whether the environment asks for traces: an OTLP endpoint is set and the SDK is not disabled. */
export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== "true";
}

/**
 * Starts the SDK when the environment asks for traces (before the database opens: its client is
 * instrumented when it opens). Answers whether traces are on. Called once per process at start.
 */
export async function startTracing(env: Record<string, string | undefined> = process.env): Promise<boolean> {
  if (state.on || !tracingRequested(env)) return state.on;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { defaultResource, detectResources, envDetector, resourceFromAttributes }] =
    await Promise.all([import("@opentelemetry/sdk-trace-node"), import("@opentelemetry/exporter-trace-otlp-http"), import("@opentelemetry/resources")]);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over our default name.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": SERVICE_NAME }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator (`traceparent`).
  provider.register();
  state.on = true;
  state.stop = async () => {
    state.on = false;
    // A collector that cannot be reached loses the last spans; it does not fail the shutdown.
    await provider.shutdown().catch(() => {});
    trace.disable();
    context.disable();
    propagation.disable();
  };
  return true;
}

/** Sends the spans still buffered and stops the SDK (process shutdown, tests). */
export async function stopTracing(): Promise<void> {
  const stop = state.stop;
  state.stop = undefined;
  await stop?.();
}

const headerGetter = {
  keys: () => [],
  get: (carrier: { get(name: string): string | null }, key: string) => carrier.get(key) ?? undefined,
};

/**
 * A partner request's span (kind server), the root of a trace of our own. A caller's `traceparent`
 * is not its parent: a partner would otherwise choose our trace ids, our sampling decision (its
 * `sampled` flag) and the context copied into every job the request causes (docs/decisions.md,
 * "Second security review"). The caller's context, when valid, is a span link instead, so a
 * collector still joins the two traces. `run` gets the span to describe once the route and status
 * are known (`describeRequest`).
 */
export function inRequestSpan<T>(method: string, headers: { get(name: string): string | null }, run: (span: Span) => Promise<T>): Promise<T> {
  const remote = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, headers, headerGetter));
  const links = remote && isSpanContextValid(remote) ? [{ context: remote }] : [];
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, root: true, links, attributes: { "http.request.method": method } }, ROOT_CONTEXT);
  return context.with(trace.setSpan(ROOT_CONTEXT, span), async () => {
    try {
      return await run(span);
    } finally {
      span.end();
    }
  });
}

/**
 * Names the request span by its route template (`POST /partners/{owner_slug}/prospects`, never a
 * slug or an id) and records the answer's status and the request id.
 */
export function describeRequest(span: Span, method: string, route: string | undefined, status: number, requestId: string): void {
  if (route) span.updateName(`${method} ${route}`).setAttribute("http.route", route);
  span.setAttribute("http.response.status_code", status).setAttribute("pis.request_id", requestId);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * The payload field a job carries its trace context in (W3C `traceparent`, `tracestate`): added by
 * `addJob`/`addJobs` and the delivery statements, read by the task list, ignored by payload schemas.
 */
export const TRACE_FIELD = "_trace";

/** The active context as a job payload's trace field, or undefined (traces off, no active span). */
export function traceFields(): Record<string, string> | undefined {
  if (!state.on || !trace.getActiveSpan()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** Runs `run` outside any trace: work it queues starts traces of its own (a recurring task's next run). */
export function outsideTrace<T>(run: () => T): T {
  return state.on ? context.with(ROOT_CONTEXT, run) : run();
}

/**
 * A job's span (kind consumer), a child of the context that added the job: the trace of the
 * request (or job) that caused it continues here.
 */
export function inJobSpan<T>(task: string, jobId: string, attempt: number, payload: unknown, run: () => Promise<T>): Promise<T> {
  const carried = (payload as Record<string, unknown> | null)?.[TRACE_FIELD];
  const parent = carried && typeof carried === "object" ? propagation.extract(context.active(), carried) : context.active();
  const span = tracer().startSpan(
    `${task} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "graphile_worker",
        "messaging.operation.type": "process",
        "messaging.destination.name": task,
        "messaging.message.id": jobId,
        "pis.job.attempt": attempt,
      },
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), () => ended(span, run));
}

/**
 * One webhook POST's span (kind client), a child of the delivery job's: method, the destination's
 * scheme and host only (its path and query often hold a receiver's token: docs/decisions.md,
 * "Second security review"), and the answer's status.
 */
export function inAttemptSpan<T extends { status: number | null; failure: string | null }>(destination: string, run: () => Promise<T>): Promise<T> {
  const url = new URL(destination);
  const span = tracer().startSpan("POST", {
    kind: SpanKind.CLIENT,
    attributes: {
      "http.request.method": "POST",
      "url.full": `${url.protocol}//${url.host}`,
      "server.address": url.hostname,
      "server.port": Number(url.port || 443),
    },
  });
  return context.with(trace.setSpan(context.active(), span), async () => {
    try {
      const result = await run();
      if (result.status !== null) span.setAttribute("http.response.status_code", result.status);
      if (result.failure !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: result.status === null ? result.failure : `HTTP ${result.status}` });
      return result;
    } finally {
      span.end();
    }
  });
}

/** A database transaction's span; the statements run inside it are its children. */
export function inTransactionSpan<T>(run: () => T): T {
  const span = tracer().startSpan("transaction", { kind: SpanKind.CLIENT, attributes: { "db.system.name": "postgresql" } });
  return context.with(trace.setSpan(context.active(), span), () => ended(span, async () => run()) as T);
}

/**
 * A statement's span, named by its operation and table (`SELECT prospects`): the statement's text
 * is not recorded, nor any parameter value. Ended by `settle` when the statement settles.
 */
export function statementSpan(text: string): { settle: (error?: unknown) => void } {
  const { operation, table } = summaryOf(text);
  const span = tracer().startSpan(table ? `${operation} ${table}` : operation, {
    kind: SpanKind.CLIENT,
    attributes: { "db.system.name": "postgresql", "db.operation.name": operation, ...(table ? { "db.collection.name": table } : {}) },
  });
  let settled = false;
  return {
    settle: (error) => {
      if (settled) return;
      settled = true;
      if (error) failed(span, error);
      span.end();
    },
  };
}

const OPERATION = /^\s*(?:\/\*[\s\S]*?\*\/\s*)?([a-z]+)/i;
// A table, not a set-returning function (`from json_to_recordset(…)`).
const TABLE = /\b(?:from|into|update|join)\s+(?:only\s+)?((?:"[^"]+"|[a-z_][\w$]*)(?:\.(?:"[^"]+"|[a-z_][\w$]*))?)(?![\w$."]*\()/gi;

/** The operation (`SELECT`, `INSERT`, `WITH`, …) and the first table a statement names. */
export function summaryOf(text: string): { operation: string; table?: string } {
  const operation = (OPERATION.exec(text)?.[1] ?? "query").toUpperCase();
  const table = text.matchAll(TABLE).next().value?.[1]?.replaceAll('"', "");
  return { operation, ...(table ? { table } : {}) };
}

async function ended<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** An error's class and PostgreSQL code, never its message (it may quote a value). */
function failed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute("error.type", typeof code === "string" ? code : error instanceof Error ? error.name : "error");
}

/** The active span's ids for a log line, or nothing (log.ts: a line carries `trace_id` when a trace is active). */
export function activeTraceIds(): { trace_id: string; span_id: string } | Record<string, never> {
  if (!state.on) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
