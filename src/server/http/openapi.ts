import type { AnyRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { z } from "zod";
import { getConfig } from "../config";
import type { Meta } from "../trpc/init";
import { partnerApiRouter } from "../trpc/routers";

type Json = Record<string, unknown>;
type Operation = { responses: Record<string, Json>; requestBody?: { content: Record<string, { schema: Json }> }; security?: unknown };

const errorBody = (example: Json): Json => ({
  type: "object",
  properties: { status_code: { type: "integer" }, error: { type: "string" } },
  required: ["status_code", "error"],
  example,
});
const gatewayBody = (message: string): Json => ({
  type: "object",
  properties: { message: { type: "string", const: message } },
  required: ["message"],
  additionalProperties: false,
  example: { message },
});
const oauthBody = (example: Json): Json => ({
  type: "object",
  properties: { error: { type: "string" }, error_description: { type: "string" } },
  required: ["error", "error_description"],
  example,
});
const json = (description: string, schema: Json) => ({ description, content: { "application/json": { schema } } });

function errorResponse(status: number, meta: Meta): Json {
  const isToken = meta.inputErrors?.kind === "oauth";
  switch (status) {
    case 400:
      return isToken
        ? json("Malformed request, unsupported grant type or scope", oauthBody({ error: "invalid_request", error_description: "client_id is required" }))
        : json("Malformed request body", errorBody({ status_code: 400, error: "Request body is not valid JSON" }));
    case 401:
      return isToken
        ? json("Credentials rejected", oauthBody({ error: "access_denied", error_description: "Unauthorized" }))
        : json("Token missing, expired or invalid (gateway)", gatewayBody("Unauthorized"));
    case 403:
      return json("Token scopes do not cover the route (gateway), or the client is not granted this owner", {
        oneOf: [gatewayBody("Forbidden"), errorBody({ status_code: 403, error: "Client is not authorized for this property owner" })],
      });
    case 404:
      return json("Unknown owner slug or resource", errorBody({ status_code: 404, error: "Property owner not found" }));
    case 409:
      return json("Conflict", errorBody({ status_code: 409, error: "external_org_id belongs to a property owner managed directly by the service" }));
    case 415:
      return json("Body without Content-Type: application/json", errorBody({ status_code: 415, error: "Content-Type must be application/json" }));
    case 422:
      return json("Validation failure", validationBody(meta));
    default:
      return json("Error", errorBody({ status_code: status, error: "Error" }));
  }
}

function validationBody(meta: Meta): Json {
  const style = meta.inputErrors;
  if (style?.kind === "resource") {
    return {
      type: "object",
      properties: {
        status_code: { type: "integer", const: 422 },
        error: { type: "string" },
        [style.key]: { type: "object", additionalProperties: { type: "string" }, description: "Attribute name to message" },
      },
      required: ["status_code", "error", style.key],
      example: { status_code: 422, error: style.error, [style.key]: { external_id: "can't be blank" } },
    };
  }
  return {
    type: "object",
    properties: {
      status_code: { type: "integer", const: 422 },
      error: { type: "string" },
      errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, description: "Field name to messages" },
    },
    required: ["status_code", "error", "errors"],
    example: { status_code: 422, error: style?.kind === "fields" ? style.error : "Request is invalid", errors: { name: ["is required"] } },
  };
}

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
    } else {
      responses["200"] = success;
    }
    for (const status of meta.responses?.errors ?? []) responses[String(status)] = errorResponse(status, meta);
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

/** An item schema as a JSON Schema; schemas with a meta `id` become components referenced by `$ref`. */
function componentSchema(doc: OpenAPIObject, schema: z.ZodType): Json {
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json & { $defs?: Record<string, Json> };
  const relinked = (value: Json) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  doc.components ??= {};
  doc.components.schemas ??= {};
  for (const [name, definition] of Object.entries($defs ?? {})) doc.components.schemas[name] = relinked(definition);
  return relinked(rest);
}

let cached: OpenAPIObject | undefined;

export function partnerOpenApiDocument(): OpenAPIObject {
  if (cached) return cached;
  const config = getConfig();
  const doc = generateOpenApiDocument(partnerApiRouter, {
    title: "Partner Integration Service — Partner API",
    version: "1.0.0",
    description:
      "Partner API of the Partner Integration Service: token exchange, property owners, onboarding collections, prospects, move-outs and webhook endpoints. Every path except the token exchange needs `Authorization: Bearer <token>`; requests with a body need `Content-Type: application/json`. Errors: gateway 401 `{message: Unauthorized}`, gateway 403 `{message: Forbidden}`, application errors `{status_code, error}`.",
    baseUrl: config.partnerBaseUrl,
    docsUrl: `${config.partnerBaseUrl}/docs`,
    license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
  });
  cached = postProcess(doc, partnerApiRouter);
  return cached;
}
