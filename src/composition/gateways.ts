import type { OpenAPIObject } from "trpc-to-openapi";
import { publishNodeGateways } from "../server/http/front-server";
import { partnerOpenApiDocumentOf } from "../server/http/openapi";
import { createRestGateway } from "../server/http/rest-handler";
import { ingestApiRouter, partnerApiRouter } from "./router";

/** `{base_url}` = `/api` (decisions §2). */
const partner = createRestGateway(partnerApiRouter, "/api");
/** `{event_base_url}` = `/ingest` (decisions §2, §8). */
const ingest = createRestGateway(ingestApiRouter, "/ingest");

// The web process's front server (src/server/http/front-server.ts) takes these Node doors once the
// Next.js routes below have loaded this module: the same handlers, caches and database pool.
publishNodeGateways({ "/api": partner.node, "/ingest": ingest.node });

export const handlePartnerApi = partner.fetch;
export const handleIngestApi = ingest.fetch;

let document: OpenAPIObject | undefined;

/** `/api/openapi.json`: generated once from the Partner API router. */
export function partnerOpenApiDocument(): OpenAPIObject {
  document ??= partnerOpenApiDocumentOf(partnerApiRouter);
  return document;
}
