import type { OpenAPIObject } from "trpc-to-openapi";
import { partnerOpenApiDocumentOf } from "../server/http/openapi";
import { createRestHandler } from "../server/http/rest-handler";
import { ingestApiRouter, partnerApiRouter } from "./router";

let partner: ((req: Request) => Promise<Response>) | undefined;
let ingest: ((req: Request) => Promise<Response>) | undefined;

/** `{base_url}` = `/api` (decisions §2). */
export function handlePartnerApi(req: Request): Promise<Response> {
  partner ??= createRestHandler(partnerApiRouter, "/api");
  return partner(req);
}

/** `{event_base_url}` = `/ingest` (decisions §2, §8). */
export function handleIngestApi(req: Request): Promise<Response> {
  ingest ??= createRestHandler(ingestApiRouter, "/ingest");
  return ingest(req);
}

let document: OpenAPIObject | undefined;

/** `/api/openapi.json`: generated once from the Partner API router. */
export function partnerOpenApiDocument(): OpenAPIObject {
  document ??= partnerOpenApiDocumentOf(partnerApiRouter);
  return document;
}
