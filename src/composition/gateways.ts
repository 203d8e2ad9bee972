import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { incomingMessageToRequest } from "@trpc/server/adapters/node-http";
import type { OpenAPIObject } from "trpc-to-openapi";
import { consoleUserOf } from "../features/console/auth-options";
import { stripeWebhook } from "../features/payments/stripe/webhook-route";
import { portalEntry } from "../features/portal/entry";
import { apiDocs } from "../server/http/api-docs";
import { MAX_BODY_BYTES } from "../server/http/body-limit";
import type { Mount, NodeHandler } from "../server/http/front-server";
import { partnerOpenApiDocumentOf } from "../server/http/openapi";
import { createRestGateway } from "../server/http/rest-handler";
import { createConsoleApiHandler } from "./console-api";
import { ingestApiRouter, partnerApiRouter } from "./router";

let document: OpenAPIObject | undefined;

/** `/api/openapi.json`: generated once from the Partner API router. */
export function partnerOpenApiDocument(): OpenAPIObject {
  document ??= partnerOpenApiDocumentOf(partnerApiRouter);
  return document;
}

const docs = apiDocs(partnerOpenApiDocument);

/**
 * The door's mount table (src/server/http/front-server.ts; docs/decisions.md "Structure: one door
 * into the gateways"): the first line whose path takes the request serves it, anything no line
 * takes goes to Next.js. `/healthz`, `/readyz` and `/metrics` are the door's own, before this table.
 * The router is imported here once, so the gateways, the console's endpoint and the worker started
 * beside them (scripts/serve.ts) share one module instance: its caches and its database pool.
 */
export const webMounts: readonly Mount[] = [
  { path: "/api/openapi.json", exact: true, handler: docs.openApiDocument },
  { path: "/api/docs", exact: true, handler: docs.page },
  { path: "/api/docs/assets", handler: docs.assets },
  /** `{base_url}` = `/api` (decisions §2). */
  { path: "/api", gateway: true, handler: createRestGateway(partnerApiRouter, "/api") },
  /** `{event_base_url}` = `/ingest` (decisions §2, §8). */
  { path: "/ingest", gateway: true, handler: createRestGateway(ingestApiRouter, "/ingest") },
  /** The console's tRPC endpoint: a console change (a disabled client, a rotated secret) clears the caches the gateways read. */
  { path: "/console/api/trpc", handler: nodeDoorOf(createConsoleApiHandler((req) => consoleUserOf(req.headers))) },
  /** A portal session's URL, traded for the `/portal` cookie (decisions §16 Portal); the portal's pages are Next.js's. */
  { path: "/portal/session", handler: portalEntry },
  /** Stripe's webhook endpoint (decisions §18 Stripe's webhooks): the raw body is read there, for its signature. */
  { path: "/stripe/webhook", exact: true, handler: stripeWebhook },
];

/** A web handler (`Request` → `Response`, tRPC's fetch adapter) on Node's request and response, through tRPC's own conversion. */
function nodeDoorOf(handler: (request: Request) => Promise<Response>): NodeHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const response = await handler(incomingMessageToRequest(req, res, { maxBodySize: MAX_BODY_BYTES }));
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers["set-cookie"] = cookies;
    res.writeHead(response.status, headers);
    if (!response.body || req.method === "HEAD") return void res.end();
    await new Promise<void>((resolve, reject) => {
      Readable.fromWeb(response.body as never)
        .on("error", reject)
        .pipe(res)
        .on("finish", resolve)
        .on("close", resolve);
    });
  };
}
