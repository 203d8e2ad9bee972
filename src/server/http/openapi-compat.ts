/**
 * Breaking changes of an OpenAPI document against a baseline, for the changelog check
 * (docs/decisions.md, "Partner developer: SDK, changelog and the breaking-change check"). A client
 * written against the baseline must keep working: every operation, status, response field and
 * required response header stays; a request it could send stays accepted (no new required field
 * or parameter, no narrowed type, range, length, enum or pattern, no field dropped from a closed
 * object). Additions (operations, optional fields, statuses, enum values in answers) are not breaking.
 */

type Json = Record<string, unknown>;
type Doc = { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, unknown> } };
type Parameter = { name: string; in: string; required?: boolean; schema?: unknown };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema?: unknown }> }>;
};

export type BreakingChange = { operation: string; change: string };

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** A JSON Schema flattened for comparison: its types, enum, bounds, properties and items. */
type Shape = {
  types: Set<string>;
  values?: unknown[];
  bounds: Record<string, number>;
  pattern?: string;
  properties: Map<string, Shape>;
  required: Set<string>;
  closed: boolean;
  items?: Shape;
};

const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];

function shapeOf(doc: Doc, schema: unknown, depth = 0): Shape {
  const shape: Shape = { types: new Set(), bounds: {}, properties: new Map(), required: new Set(), closed: false };
  if (!schema || typeof schema !== "object" || depth > 32) return shape;
  let node = schema as Json;
  if (typeof node.$ref === "string") {
    const name = node.$ref.replace("#/components/schemas/", "");
    return shapeOf(doc, doc.components?.schemas?.[name], depth + 1);
  }
  const parts = [...((node.anyOf as unknown[]) ?? []), ...((node.oneOf as unknown[]) ?? [])].map((part) => shapeOf(doc, part, depth + 1));
  for (const part of (node.allOf as unknown[]) ?? []) node = { ...node, ...(part as Json) };
  if (parts.length > 0) {
    for (const part of parts) merge(shape, part);
    return shape;
  }
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  for (const type of types) shape.types.add(String(type));
  if ("const" in node) {
    shape.values = [node.const];
    if (types.length === 0) shape.types.add(node.const === null ? "null" : typeof node.const);
  }
  if (Array.isArray(node.enum)) shape.values = node.enum;
  for (const bound of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) if (typeof node[bound] === "number") shape.bounds[bound] = node[bound] as number;
  if (typeof node.pattern === "string") shape.pattern = node.pattern;
  for (const [name, property] of Object.entries((node.properties as Json) ?? {})) shape.properties.set(name, shapeOf(doc, property, depth + 1));
  for (const name of (node.required as string[]) ?? []) shape.required.add(name);
  shape.closed = node.additionalProperties === false;
  if (node.items) shape.items = shapeOf(doc, node.items, depth + 1);
  return shape;
}

/** A union of alternatives: any type, value and property of either (bounds of the first that has them). */
function merge(into: Shape, part: Shape): void {
  for (const type of part.types) into.types.add(type);
  if (part.values) into.values = [...(into.values ?? []), ...part.values];
  else if (part.types.size > 0 && into.values && ![...part.types].every((type) => type === "null")) into.values = undefined;
  for (const [bound, value] of Object.entries(part.bounds)) into.bounds[bound] ??= value;
  into.pattern ??= part.pattern;
  for (const [name, property] of part.properties) if (!into.properties.has(name)) into.properties.set(name, property);
  for (const name of part.required) into.required.add(name);
  into.closed ||= part.closed;
  into.items ??= part.items;
}

const covers = (types: Set<string>, type: string) => types.size === 0 || types.has(type) || (type === "integer" && types.has("number"));

/** What the service accepts: everything `before` accepted must still be accepted by `after`. */
function requestNarrowing(before: Shape, after: Shape, at: string, out: string[]): void {
  for (const type of before.types) if (!covers(after.types, type)) out.push(`${at}: type ${type} no longer accepted`);
  if (before.types.size === 0 && after.types.size > 0) out.push(`${at}: type restricted to ${[...after.types].join("|")}`);
  const list = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(", ");
  if (after.values && !before.values) out.push(`${at}: now limited to ${list(after.values)}`);
  if (after.values && before.values) {
    const dropped = before.values.filter((value) => !after.values?.some((v) => JSON.stringify(v) === JSON.stringify(value)));
    if (dropped.length > 0) out.push(`${at}: values ${list(dropped)} no longer accepted`);
  }
  for (const bound of LOWER_BOUNDS) {
    const [was, now] = [before.bounds[bound], after.bounds[bound]];
    if (now !== undefined && (was === undefined || now > was)) out.push(`${at}: ${bound} raised to ${now}`);
  }
  for (const bound of UPPER_BOUNDS) {
    const [was, now] = [before.bounds[bound], after.bounds[bound]];
    if (now !== undefined && (was === undefined || now < was)) out.push(`${at}: ${bound} lowered to ${now}`);
  }
  if (after.pattern !== undefined && after.pattern !== before.pattern) out.push(`${at}: pattern now ${after.pattern}`);
  for (const name of after.required) if (!before.required.has(name)) out.push(`${at}.${name}: new required field`);
  for (const [name, property] of before.properties) {
    const now = after.properties.get(name);
    if (now) requestNarrowing(property, now, `${at}.${name}`, out);
    else if (after.closed) out.push(`${at}.${name}: field no longer accepted`);
  }
  if (before.items && after.items) requestNarrowing(before.items, after.items, `${at}[]`, out);
}

/** What the service answers: everything `before` promised must still be promised by `after`. */
function responseWeakening(before: Shape, after: Shape, at: string, out: string[]): void {
  if (before.types.size > 0) for (const type of after.types) if (!covers(before.types, type)) out.push(`${at}: may now be ${type}`);
  for (const [name, property] of before.properties) {
    const now = after.properties.get(name);
    if (!now) out.push(`${at}.${name}: field removed`);
    else {
      if (before.required.has(name) && !after.required.has(name)) out.push(`${at}.${name}: no longer always present`);
      responseWeakening(property, now, `${at}.${name}`, out);
    }
  }
  if (before.items && after.items) responseWeakening(before.items, after.items, `${at}[]`, out);
}

const jsonSchema = (content: Record<string, { schema?: unknown }> | undefined) => content?.["application/json"]?.schema;

/** Paths compared with their parameters' names blanked: renaming `{id}` changes no request. */
const pathKey = (path: string) => path.replace(/\{[^}]+\}/g, "{}");

function operationsOf(doc: Doc): Map<string, { label: string; operation: Operation }> {
  const operations = new Map<string, { label: string; operation: Operation }>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of METHODS)
      if (item[method])
        operations.set(`${method.toUpperCase()} ${pathKey(path)}`, { label: `${method.toUpperCase()} ${path}`, operation: item[method] as Operation });
  return operations;
}

function compareOperation(before: Doc, b: Operation, after: Doc, a: Operation): string[] {
  const out: string[] = [];
  const paramKey = (parameter: Parameter) => (parameter.in === "path" ? "path" : `${parameter.in} ${parameter.name}`);
  const positional = (list: Parameter[] | undefined) => {
    let index = 0;
    return new Map((list ?? []).map((parameter) => [parameter.in === "path" ? `path ${index++}` : paramKey(parameter), parameter]));
  };
  const [oldParameters, newParameters] = [positional(b.parameters), positional(a.parameters)];
  for (const [key, parameter] of newParameters) {
    const was = oldParameters.get(key);
    if (!was && parameter.required) out.push(`parameter ${parameter.name} (${parameter.in}): new and required`);
    if (was) requestNarrowing(shapeOf(before, was.schema), shapeOf(after, parameter.schema), `parameter ${parameter.name}`, out);
  }
  for (const [key, parameter] of oldParameters) if (!newParameters.has(key)) out.push(`parameter ${parameter.name} (${parameter.in}): removed`);

  const [oldBody, newBody] = [jsonSchema(b.requestBody?.content), jsonSchema(a.requestBody?.content)];
  if (a.requestBody?.required && !b.requestBody?.required) out.push("request body: now required");
  if (oldBody !== undefined && newBody === undefined && a.requestBody === undefined) out.push("request body: no longer accepted");
  if (oldBody !== undefined && newBody !== undefined) requestNarrowing(shapeOf(before, oldBody), shapeOf(after, newBody), "request body", out);

  for (const [status, response] of Object.entries(b.responses ?? {})) {
    const now = a.responses?.[status];
    if (!now) {
      out.push(`response ${status}: removed`);
      continue;
    }
    for (const [name, header] of Object.entries(response.headers ?? {}))
      if (header.required && !Object.keys(now.headers ?? {}).some((other) => other.toLowerCase() === name.toLowerCase() && now.headers?.[other]?.required))
        out.push(`response ${status}: header ${name} no longer always sent`);
    const [oldSchema, newSchema] = [jsonSchema(response.content), jsonSchema(now.content)];
    if (oldSchema !== undefined && newSchema === undefined) out.push(`response ${status}: JSON body removed`);
    if (oldSchema !== undefined && newSchema !== undefined) responseWeakening(shapeOf(before, oldSchema), shapeOf(after, newSchema), `response ${status}`, out);
  }
  return out;
}

/** Every breaking change from `before` to `after`, by operation (`METHOD /path`). */
export function breakingChanges(before: Doc, after: Doc): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const next = operationsOf(after);
  for (const [key, { label, operation }] of operationsOf(before)) {
    const now = next.get(key);
    if (!now) changes.push({ operation: label, change: "operation removed" });
    else for (const change of compareOperation(before, operation, after, now.operation)) changes.push({ operation: now.label, change });
  }
  return changes;
}

/**
 * The newest dated entry of the changelog (`## YYYY-MM-DD`) and the text of its `### Breaking`
 * section (empty when it has none).
 */
export function newestBreakingSection(changelog: string): { date: string | undefined; text: string } {
  const entries = changelog.split(/^## /m).slice(1);
  const newest = entries.find((entry) => /^\d{4}-\d{2}-\d{2}/.test(entry));
  if (!newest) return { date: undefined, text: "" };
  const date = newest.slice(0, 10);
  const breaking = newest.split(/^### /m).find((section) => /^Breaking\b/i.test(section));
  return { date, text: breaking ?? "" };
}

/** The breaking changes whose operation the newest changelog entry's Breaking section does not name. */
export function unannouncedBreakingChanges(before: Doc, after: Doc, changelog: string): BreakingChange[] {
  const { text } = newestBreakingSection(changelog);
  return breakingChanges(before, after).filter(({ operation }) => !text.includes(operation));
}
