import type { OpenAPIObject } from "trpc-to-openapi";

type Json = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; example?: unknown; schema?: Json };
type Operation = { description?: string; parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Json }> }; security?: unknown[] };

const METHODS = ["get", "put", "post", "patch", "delete"];

/**
 * A curl and a TypeScript (SDK) example on every operation (docs/decisions.md, "Partner developer:
 * SDK, changelog and the breaking-change check"): as `x-codeSamples` for tools that read them, and
 * at the end of the description, which the docs page renders. Built from the document itself (path
 * and query parameters, the body from the schema's examples), so a new route gets its examples.
 */
export function addCodeSamples(doc: OpenAPIObject): OpenAPIObject {
  const base = (doc.servers?.[0]?.url ?? "").replace(/\/+$/, "");
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const samples = codeSamples(doc, base, method.toUpperCase(), path, operation);
      (operation as Json)["x-codeSamples"] = samples;
      operation.description =
        `${operation.description ?? ""}\n\n**Examples**\n\n${samples.map(({ lang, source }) => `\`\`\`${lang === "Shell" ? "sh" : "ts"}\n${source}\n\`\`\``).join("\n\n")}`.trim();
    }
  }
  return doc;
}

export type CodeSample = { lang: "Shell" | "TypeScript"; label: string; source: string };

export function codeSamples(doc: OpenAPIObject, base: string, method: string, path: string, operation: Operation): CodeSample[] {
  const parameters = operation.parameters ?? [];
  const pathValues = Object.fromEntries(parameters.filter((p) => p.in === "path").map((p) => [p.name, parameterExample(p)]));
  const queryValues = Object.fromEntries(parameters.filter((p) => p.in === "query" && p.required).map((p) => [p.name, parameterExample(p)]));
  const schema = operation.requestBody?.content?.["application/json"]?.schema;
  const body = schema === undefined ? undefined : example(doc, schema, "body", 0);
  const isTokenExchange = path === "/token";

  const concretePath = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(pathValues[name])));
  const query = new URLSearchParams(Object.entries(queryValues).map(([key, value]) => [key, String(value)])).toString();
  const curl = [`curl -X ${method} "${base}${concretePath}${query ? `?${query}` : ""}"`];
  if (!isTokenExchange) curl.push(`-H "Authorization: Bearer $TOKEN"`);
  // The token exchange's body names shell variables, so it is double-quoted for the shell to expand them.
  if (body !== undefined)
    curl.push(
      `-H "Content-Type: application/json"`,
      isTokenExchange ? `-d "${JSON.stringify(tokenBody()).replaceAll('"', '\\"')}"` : `-d '${JSON.stringify(body)}'`,
    );

  const setup = [
    `import { createPartnerClient } from "@partner-integration/sdk";`,
    "",
    "const api = createPartnerClient({",
    `  baseUrl: "${base}",`,
    "  credentials: { clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET!, audience: process.env.AUDIENCE! },",
    "});",
    "",
  ];
  let call: string[];
  if (isTokenExchange) {
    call = ["// The client exchanges the credentials itself, caches the token and refreshes it before it expires.", "const token = await api.tokens.token();"];
  } else {
    const options: string[] = [];
    const params = [
      Object.keys(pathValues).length > 0 ? `path: ${literal(pathValues)}` : "",
      Object.keys(queryValues).length > 0 ? `query: ${literal(queryValues)}` : "",
    ].filter(Boolean);
    if (params.length > 0) options.push(`  params: { ${params.join(", ")} },`);
    if (body !== undefined) options.push(`  body: ${tsLiteral(body)},`);
    call = [
      `const { data, error, response } = await api.${method}("${path}"${options.length > 0 ? `, {\n${options.join("\n")}\n}` : ""});`,
      // The sample's own template literal, kept as text.
      ["if (error) throw new Error(`HTTP $", "{response.status}: $", "{JSON.stringify(error)}`);"].join(""),
    ];
  }
  return [
    { lang: "Shell", label: "curl", source: curl.join(" \\\n  ") },
    { lang: "TypeScript", label: "TypeScript (SDK)", source: [...setup, ...call].join("\n") },
  ];
}

/** A value as a TypeScript object literal: JSON with identifier keys unquoted, indented under `body:`. */
const tsLiteral = (value: unknown) =>
  JSON.stringify(value, null, 2)
    .replace(/^(\s*)"([A-Za-z_][A-Za-z0-9_]*)":/gm, "$1$2:")
    .replaceAll("\n", "\n  ");

const tokenBody = () => ({ grant_type: "client_credentials", client_id: "$CLIENT_ID", client_secret: "$CLIENT_SECRET", audience: "$AUDIENCE" });

const literal = (values: Json) =>
  `{ ${Object.entries(values)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(", ")} }`;

/** Example values of path and query parameters the schema does not give. */
const NAMED: Record<string, unknown> = {
  owner_slug: "maple-street-holdings",
  provider: "acme-pms",
  source: "acme_pms",
  source_prospect_id: "p-1042",
  email: "renter@example.com",
};

function parameterExample(parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  if (parameter.schema?.example !== undefined) return parameter.schema.example;
  if (parameter.name in NAMED) return NAMED[parameter.name];
  return parameter.schema?.type === "integer" ? 42 : parameter.name === "id" || parameter.name.endsWith("_id") ? "42" : `<${parameter.name}>`;
}

/** An example of a schema: its own `example`, else required fields and fields with examples, recursively. */
function example(doc: OpenAPIObject, schema: Json | undefined, name: string, depth: number): unknown {
  if (!schema || depth > 12) return undefined;
  if (typeof schema.$ref === "string")
    return example(doc, doc.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")] as Json, name, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if ("const" in schema) return schema.const;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives)
    return example(
      doc,
      alternatives.find((alternative) => alternative.type !== "null"),
      name,
      depth + 1,
    );
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    const required = new Set((schema.required as string[]) ?? []);
    const fields: Json = {};
    for (const [key, property] of Object.entries((schema.properties as Record<string, Json>) ?? {})) {
      if (!required.has(key) && !hasExample(doc, property, depth)) continue;
      const value = example(doc, property, key, depth + 1);
      if (value !== undefined) fields[key] = value;
    }
    return fields;
  }
  if (type === "array") return [example(doc, schema.items as Json, name, depth + 1)].filter((item) => item !== undefined);
  if (type === "integer" || type === "number") return typeof schema.minimum === "number" && schema.minimum > 0 ? schema.minimum : 1;
  if (type === "boolean") return true;
  if (type === "string") return stringExample(name, schema);
  return undefined;
}

function hasExample(doc: OpenAPIObject, schema: Json, depth: number): boolean {
  if (depth > 12) return false;
  if (typeof schema.$ref === "string") return hasExample(doc, doc.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")] as Json, depth + 1);
  if (schema.example !== undefined) return true;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  return Boolean(alternatives?.some((alternative) => hasExample(doc, alternative, depth + 1)));
}

/** Example strings of fields the schemas give none for, by field name. */
const NAMED_FIELDS: Record<string, string> = {
  source: "acme_pms",
  source_prospect_id: "p-1042",
  external_id: "mo-1042",
  external_system_id: "b1",
  property_external_id: "b1",
  name: "Main office",
  events: "prospect.created",
  address_line_one: "10 Main St",
  address_city: "Austin",
  address_state: "TX",
  address_zip: "78701",
};

function stringExample(name: string, schema: Json): string {
  if (name in NAMED_FIELDS) return NAMED_FIELDS[name];
  if (schema.format === "date-time" || name.endsWith("_at")) return "2026-11-26T10:00:00Z";
  if (schema.format === "date" || name.endsWith("_date") || name === "birthdate") return "2026-12-01";
  if (name.includes("email")) return "renter@example.com";
  if (name.includes("url")) return "https://partner.example.com/hooks";
  return `<${name}>`;
}
