import type { AnyRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { z } from "zod";
import { getConfig } from "../config";
import { DATABASE_RETRY_AFTER_SECONDS, GATEWAY_MESSAGES } from "../errors";
import type { Meta } from "../trpc/init";
import { openApiErrorResponse } from "./error-wire";
import { addCodeSamples } from "./openapi-examples";

type Json = Record<string, unknown>;
type Operation = { responses: Record<string, Json>; parameters?: Json[]; requestBody?: { content: Record<string, { schema: Json }> }; security?: unknown };

/**
 * The error statuses a route documents: its own list, plus what any request may earn from the REST
 * wrapper: 422 wherever a request carries text (every route but the token exchange, whose input
 * errors are OAuth 400s), since text that cannot be accepted in a body field, path or query
 * parameter answers 422 (docs/decisions.md, Requests and errors); 400 everywhere, for a path with broken percent-encoding
 * (`src/server/http/malformed-path.ts`); and on routes taking a body, 400 (malformed JSON), 413
 * (over 5 MiB) and 415 (not `application/json`).
 */
export function documentedErrors(meta: Meta): number[] {
  const statuses = new Set(meta.responses?.errors ?? []);
  // An `Idempotency-Key` still in flight (docs/decisions.md, "Partner developer: idempotency keys").
  if (takesIdempotencyKey(meta)) statuses.add(409);
  if (meta.inputErrors?.kind !== "oauth") statuses.add(422);
  // The request limits (docs/decisions.md, "Partner developer: rate limits"): every Partner API
  // route counts its client's requests, the token exchange its client ids and addresses.
  statuses.add(429);
  statuses.add(400);
  if (meta.openapi && ["POST", "PUT", "PATCH"].includes(meta.openapi.method)) for (const status of [400, 413, 415]) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

/** Every Partner API POST but the token exchange takes `Idempotency-Key` (decisions §16). */
function takesIdempotencyKey(meta: Meta): boolean {
  return meta.openapi?.method === "POST" && meta.openapi.protect !== false && meta.inputErrors?.kind !== "oauth";
}

/** decisions §16 Idempotency keys; docs/decisions.md, "Partner developer: idempotency keys". */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes the POST safe to retry (as the IETF `Idempotency-Key` draft describes): 1–255 visible ASCII characters, unique per request (a UUID), kept 24 h per API client. " +
    "A retry with the same key, path and body answers the first answer's status and body again with `Idempotent-Replayed: true` and changes nothing; " +
    "the same key with another path or body answers 422; while the first request is still running, 409 (retry later). " +
    "Only successful answers are kept: after a 4xx or 5xx the request changed nothing and the key may be used again. A malformed key answers 400.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$", example: "5f0c2a4e-8d1b-4c6a-9f3e-2b7d1e0a9c41" },
};
const IDEMPOTENT_REPLAYED_HEADER = {
  description: "`true` when this is the kept answer of an earlier request with the same `Idempotency-Key` (nothing was done again)",
  schema: { type: "string", enum: ["true"] },
};

/** decisions §17 "The Partner API is fair too": on every answer of a counted request (docs/decisions.md, "Partner developer: rate limits"). */
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": {
    description: "Requests the client may send at once (the burst: twice `API_RATE_LIMIT_PER_SECOND`, whose rate refills it)",
    schema: { type: "integer", minimum: 1, example: 200 },
  },
  "RateLimit-Remaining": { description: "Requests left now (the bucket refills continuously)", schema: { type: "integer", minimum: 0, example: 187 } },
  "RateLimit-Reset": { description: "Seconds until the full limit is available again", schema: { type: "integer", minimum: 0, example: 1 } },
};

/**
 * The generator documents only 200 and tRPC's own error shapes; the specification's statuses and
 * bodies are added here, in one place (stack notes), from each procedure's meta.
 */
function postProcess(doc: OpenAPIObject, router: AnyRouter): OpenAPIObject {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  for (const procedure of Object.values(procedures)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi) continue;
    const pathKey = meta.openapi.path.replace(/\{(\w+)\}/g, "{$1}");
    const operation = (doc.paths?.[pathKey] as Record<string, Operation> | undefined)?.[meta.openapi.method.toLowerCase()];
    if (!operation) continue;
    const success = operation.responses["200"];
    const responses: Record<string, Json> = {};
    if (meta.responses?.created) {
      responses["201"] = { ...success, description: "Created" };
      responses["200"] = { ...success, description: "Updated" };
    } else if (meta.responses?.accepted) {
      // Accepted for a background job (decisions §16): the only success status such a route answers.
      responses["202"] = { ...success, description: "Accepted: the work is queued" };
    } else {
      responses["200"] = success;
    }
    if (takesIdempotencyKey(meta)) {
      operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
      for (const status of Object.keys(responses))
        if (status.startsWith("2")) responses[status] = { ...responses[status], headers: { "Idempotent-Replayed": IDEMPOTENT_REPLAYED_HEADER } };
    }
    for (const status of Object.keys(responses))
      if (status.startsWith("2")) responses[status] = { ...responses[status], headers: { ...(responses[status].headers as Json), ...RATE_LIMIT_HEADERS } };
    for (const status of documentedErrors(meta)) responses[String(status)] = openApiErrorResponse(status, meta.inputErrors);
    const tooMany = responses["429"] as Json & { headers?: Json };
    responses["429"] = { ...tooMany, headers: { ...tooMany.headers, ...RATE_LIMIT_HEADERS } };
    responses["503"] = databaseUnavailableResponse(meta);
    operation.responses = responses;
    if (meta.openapi.protect === false) operation.security = [];
    if (meta.arrayBody && operation.requestBody) {
      // The body is a bare array (stack notes): document the array of items, not the `{items}` wrapper.
      const media = operation.requestBody.content["application/json"];
      media.schema = { type: "array", minItems: 0, maxItems: 500, items: meta.itemSchema ? componentSchema(doc, meta.itemSchema) : { type: "object" } };
    }
  }
  // The generator registers tRPC's own error schemas; the answers above replace every use of them.
  const schemas = doc.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  return doc;
}

/**
 * Every route answers 503 with `Retry-After` while the database is out of reach (docs/decisions.md
 * "Faults, proven" and "Operations: recovery from faults"): documented on each, with its header.
 * Not one of `documentedErrors`, which lists what a request itself can earn (the fuzz test's allowlist).
 */
function databaseUnavailableResponse(meta: Meta): Json {
  const response = openApiErrorResponse(503, meta.inputErrors) as Json & { content: { "application/json": { schema: Json } } };
  const schema = response.content["application/json"].schema;
  return {
    description: "Temporarily unavailable, as while the database is out of reach (a restart); retry after `Retry-After` seconds",
    headers: {
      "Retry-After": {
        description: "Seconds to wait before trying again",
        required: true,
        schema: { type: "integer", minimum: 1, example: DATABASE_RETRY_AFTER_SECONDS },
      },
    },
    content: { "application/json": { schema: { ...schema, example: { status_code: 503, error: GATEWAY_MESSAGES.databaseUnavailable } } } },
  };
}

/** An item schema as a JSON Schema; schemas with a meta `id` become components referenced by `$ref`. */
function componentSchema(doc: OpenAPIObject, schema: z.ZodType): Json {
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json & { $defs?: Record<string, Json> };
  const relinked = (value: Json) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  doc.components ??= {};
  doc.components.schemas ??= {};
  for (const [name, definition] of Object.entries($defs ?? {})) doc.components.schemas[name] = relinked(definition);
  return relinked(rest);
}

/** The Partner API's OpenAPI document, generated from its router (the composition root caches it). */
export function partnerOpenApiDocumentOf(partnerApiRouter: AnyRouter): OpenAPIObject {
  const config = getConfig();
  const doc = generateOpenApiDocument(partnerApiRouter, {
    title: "Partner Integration Service — Partner API",
    version: "1.0.0",
    description:
      "Partner API of the Partner Integration Service: token exchange, property owners, onboarding collections, prospects, move-outs and webhook endpoints. Every path except the token exchange needs `Authorization: Bearer <token>`; requests with a body need `Content-Type: application/json`. Errors: gateway 401 `{message: Unauthorized}`, gateway 403 `{message: Forbidden}`, application errors `{status_code, error}`.\n\n" +
      "**Safe retries**: every POST but the token exchange takes an `Idempotency-Key` header (1–255 visible ASCII characters, e.g. a UUID per request; kept 24 h per API client). Retrying with the same key and body answers the first answer again with `Idempotent-Replayed: true` and does nothing twice, e.g. `curl -X POST {base_url}/partners/acme/prospects -H 'Authorization: Bearer …' -H 'Content-Type: application/json' -H 'Idempotency-Key: 5f0c2a4e-8d1b-4c6a-9f3e-2b7d1e0a9c41' -d '{\"prospect\": {…}}'`. The same key with another body answers 422 `{status_code, error}`, a retry while the first request still runs 409 (retry after a moment); a failed request (4xx, 5xx) keeps nothing, so its key can be used again.\n\n" +
      "**Rate limits**: each API client may send `API_RATE_LIMIT_PER_SECOND` requests a second (100 unless the operator says otherwise) with bursts up to twice that, counted across every server of the service. Every answer to an authenticated request carries `RateLimit-Limit` (the burst), `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the full burst is back); beyond the limit the answer is 429 `{status_code, error}` with `Retry-After` (seconds) and nothing is done: wait that long and send the request again (the typed SDK does). One client's traffic never uses another's limit. Each server also runs a few requests at once and takes them fairly across clients: a client's requests beyond that wait their turn, and one with too many waiting (100 unless the operator says otherwise) or waiting too long (10 s) is answered the same 429 with `Retry-After`, having done nothing. The token exchange is limited per `client_id` and per address (10 and 100 a second unless the operator says otherwise): a token lives 8600 s, so ask for one and reuse it.\n\n" +
      "**Staging test values** (decisions §10; no effect in production): in the enrollment flow, an email whose local part ends in `+decline` (e.g. `rita+decline@example.com`) is declined by underwriting for every product; `+blocked` ends at the identity check as `blocked`. Card `4242 4242 4242 4242` pays, `4000 0000 0000 0002` is declined (the renter may try again), any other Luhn-valid number pays; staging's simulated processor records payments and never charges. The staging reset clears the renters, applications, policies and cash deposits of your sources.",
    baseUrl: config.partnerBaseUrl,
    docsUrl: `${config.partnerBaseUrl}/docs`,
    license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
  });
  return addCodeSamples(postProcess(doc, partnerApiRouter));
}
