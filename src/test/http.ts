import type { AddressInfo } from "node:net";
import type { AnyRouter } from "@trpc/server";
import { webMounts } from "../composition/gateways";
import { createFrontServer, type Mount } from "../server/http/front-server";
import { createRestGateway } from "../server/http/rest-handler";

export type ApiAnswer<T = Record<string, unknown>> = { status: number; body: T; headers: Headers; text: string };

type CallOptions = {
  token?: string;
  body?: unknown;
  /** Sent verbatim instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
};

/**
 * The tests' door: the web process's own server (`createFrontServer`) with its mount table,
 * listening on an ephemeral port of this test file's process, real HTTP in between. Only Next.js is
 * missing: a path no mount takes answers 404 (docs/decisions.md "Structure: one door into the gateways").
 */
function listening(mounts: readonly Mount[]): () => Promise<string> {
  let url: Promise<string> | undefined;
  return () => {
    url ??= new Promise((resolve) => {
      const server = createFrontServer({
        mounts,
        next: async (_req, res) => {
          res.writeHead(404, { "Content-Type": "application/json" });
          res.end(JSON.stringify({ status_code: 404, error: "Not found (no Next.js in the tests' door)" }));
        },
      });
      // The test file's process may end while it listens.
      server.unref();
      server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    });
    return url;
  };
}

/** Sends a web `Request` (its path, query, method, headers and body; not its host) through a door. */
function sender(door: () => Promise<string>): (request: Request) => Promise<Response> {
  return async (request) => {
    const { pathname, search } = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return fetch(`${await door()}${pathname}${search}`, { method: request.method, headers: request.headers, body, redirect: "manual" });
  };
}

/** The web process's door: `/api`, `/ingest`, the docs and the console's tRPC endpoint, as `scripts/serve.ts` serves them. */
const webDoor = listening(webMounts);
export const throughDoor = sender(webDoor);

/** The web process's door's address (`http://127.0.0.1:<port>`), for clients that make their own requests (the SDK's tests). */
export const webDoorUrl = webDoor;

/** A door with one gateway of the given router on `prefix` (tests of a router of their own). */
export function gatewayDoor(router: AnyRouter, prefix: `/${string}`): (request: Request) => Promise<Response> {
  return sender(listening([{ path: prefix, gateway: true, handler: createRestGateway(router, prefix) }]));
}

/** Calls the real gateway through the web process's door, over HTTP. */
export async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  const raw = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (raw !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const response = await throughDoor(new Request(`http://localhost:3999${path}`, { method, headers, body: raw }));
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers, text };
}
