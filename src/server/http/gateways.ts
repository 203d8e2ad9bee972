import { ingestApiRouter, partnerApiRouter } from "../trpc/routers";
import { createRestHandler } from "./rest-handler";

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
