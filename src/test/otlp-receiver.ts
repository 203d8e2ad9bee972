import http from "node:http";
import type { AddressInfo } from "node:net";

/** A span as the OTLP/HTTP JSON encoding carries it (ids in hex), its attributes flattened. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** The span's links (the OTLP JSON export's own field). */
  links?: { traceId: string; spanId: string }[];
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status?: { code?: number };
  service: string;
};

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };
type ExportTraceServiceRequest = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: (Omit<ReceivedSpan, "attributes" | "service"> & { attributes?: KeyValue[] })[] }[];
  }[];
};

const plainValue = (value: AnyValue) =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? ""));
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, plainValue(value)]));

/**
 * A local OTLP/HTTP collector for tests: a real HTTP server on 127.0.0.1 answering `POST /v1/traces`
 * as a collector does, decoding the JSON export requests the exporter really sends.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests += 1;
      if (req.method !== "POST" || req.url !== "/v1/traces" || !req.headers["content-type"]?.startsWith("application/json")) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportTraceServiceRequest;
      for (const resource of body.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)["service.name"] ?? "");
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ ...span, attributes: attributesOf(span.attributes), service });
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
