/**
 * Malformed requests for the fuzz test (src/server/http/fuzz.int.test.ts), generated from a route's
 * documented shape: its path parameters, query parameters and request body schema.
 */

export type Json = Record<string, unknown>;
export type FuzzRoute = { method: string; path: string; query: string[]; body?: unknown; pathValues: Record<string, string> };
export type FuzzCase = { label: string; method: string; path: string; headers: Record<string, string>; body?: string | Uint8Array };

const MARK = "\u0001FUZZ\u0001";
const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** Raw JSON texts put in place of one value: bad text, wrong types, huge numbers, deep nesting. */
export const BAD_VALUES: string[] = [
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\u0007"',
  '"\\u001b[31m"',
  '"\\ud800"',
  '"x\\udfff"',
  `"${"x".repeat(70_000)}"`,
  '""',
  "1e999",
  "-1e999",
  "123456789012345678901234567890",
  "1.5",
  "-1",
  '"12"',
  '"yes"',
  "true",
  "null",
  "{}",
  '{"\\u0000":"x"}',
  '["\\ud800"]',
  deep(3000),
];
/** The few that cover each kind, used at every position of large bodies. */
export const CORE_VALUES = ['"\\u0000"', '"\\ud800"', '"yes"', "{}", deep(3000)];

/** Path segments: NUL, controls, bad or truncated percent-encoding, an encoded lone surrogate, very long. */
export const BAD_SEGMENTS = ["%00", "a%00b", "%1F", "%ZZ", "%", "%ED%A0%80", "%C0%80", "%2F..%2F", "x".repeat(5000), "%F0%9F%98%80"];
export const BAD_QUERY = ["%00", "%ED%A0%80", "%ZZ", "x".repeat(5000), "1e999", ""];

/** Every value position in a JSON value, as key paths (objects and arrays included, and the root). */
export function positions(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  const here = [path];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => positions(item, [...path, index]))];
  if (value && typeof value === "object") return [...here, ...Object.entries(value).flatMap(([key, child]) => positions(child, [...path, key]))];
  return here;
}

/** `base` as JSON text with the value at `path` replaced by the raw JSON `raw`. */
export function withRawValue(base: unknown, path: Array<string | number>, raw: string): string {
  if (path.length === 0) return raw;
  const copy = structuredClone(base) as Json;
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) parent = parent[key as string] as Json;
  parent[path[path.length - 1] as string] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), raw);
}

/** An object body with an extra bad key at `path`. */
function withBadKey(base: unknown, path: Array<string | number>, key: string): string | undefined {
  const copy = structuredClone(base) as Json;
  let target: unknown = copy;
  for (const step of path) target = (target as Json)[step as string];
  if (!target || typeof target !== "object" || Array.isArray(target)) return undefined;
  (target as Json)[MARK] = 1;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), key);
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "x");
const JSON_TYPE = { "content-type": "application/json" };

export function casesFor(route: FuzzRoute): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const path = fill(route.path, route.pathValues);
  const add = (label: string, body?: string | Uint8Array, headers: Record<string, string> = JSON_TYPE, at = path) =>
    cases.push({ label: `${route.method} ${route.path} ${label}`, method: route.method, path: at, headers: body === undefined ? {} : headers, body });

  for (const name of Object.keys(route.pathValues)) {
    for (const segment of BAD_SEGMENTS) add(`path ${name}=${segment.slice(0, 20)}`, undefined, {}, fill(route.path, { ...route.pathValues, [name]: segment }));
  }
  for (const name of [...route.query, "unexpected"]) {
    for (const value of BAD_QUERY) add(`query ${name}=${value.slice(0, 20)}`, undefined, {}, `${path}?${name}=${value}`);
  }
  if (route.body === undefined) return cases;

  const all = positions(route.body);
  all.forEach((position, index) => {
    // Every kind at the first field positions, the core kinds everywhere else (the run stays short).
    for (const raw of index > 0 && index < 3 ? BAD_VALUES : CORE_VALUES)
      add(`${position.join(".") || "(root)"} = ${raw.slice(0, 24)}`, withRawValue(route.body, position, raw));
  });
  for (const position of all.filter((p) => p.length <= 2)) {
    for (const key of ['"\\u0000"', '"\\udc00"']) {
      const body = withBadKey(route.body, position, key);
      if (body) add(`key ${key} in ${position.join(".") || "(root)"}`, body);
    }
  }
  const valid = JSON.stringify(route.body);
  add("truncated JSON", valid.slice(0, Math.max(1, Math.floor(valid.length / 2))));
  add("invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]));
  add("a NUL byte outside strings", `{"a":1}\u0000`);
  add("empty body", "");
  for (const raw of ["null", "[]", '"text"', "1e999", deep(200_000), JSON.stringify([route.body]), "{}"]) add(`whole body ${raw.slice(0, 16)}`, raw);
  for (const type of [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=utf-16",
    "application/jsonx",
  ])
    add(`content-type ${type}`, valid, { "content-type": type });
  add("no content-type", valid, {});
  add("over 5 MiB", `{"a":"${"x".repeat(5 * 1024 * 1024)}"}`);
  return cases;
}

/** A value for every property of a JSON Schema (examples first), so every field position is fuzzed. */
export function sampleOf(schema: Json | undefined, doc: Json, depth = 0): unknown {
  if (!schema || depth > 6) return "x";
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop() as string;
    return sampleOf(((doc.components as Json)?.schemas as Json)?.[name] as Json, doc, depth + 1);
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options) return sampleOf(options.find((option) => option.type !== "null") ?? options[0], doc, depth + 1);
  switch (schema.type) {
    case "object":
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([key, value]) => [key, sampleOf(value, doc, depth + 1)]),
      );
    case "array":
      return [sampleOf(schema.items as Json, doc, depth + 1)];
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    default:
      return schema.format === "email" ? "renter@example.com" : schema.format === "date-time" ? "2026-11-01T10:00:00Z" : "x";
  }
}
