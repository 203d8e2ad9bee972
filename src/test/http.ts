import { handleIngestApi, handlePartnerApi } from "../composition/gateways";

export type ApiAnswer<T = Record<string, unknown>> = { status: number; body: T; headers: Headers; text: string };

type CallOptions = {
  token?: string;
  body?: unknown;
  /** Sent verbatim instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
};

/** Calls the real REST handler (the same function the Next.js route serves) with a real Request. */
export async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  const raw = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (raw !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const request = new Request(`http://localhost:3999${path}`, { method, headers, body: raw });
  const response = await (path.startsWith("/ingest") ? handleIngestApi(request) : handlePartnerApi(request));
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers, text };
}
