import type { Meta } from "../trpc/init";

/**
 * Text the service refuses anywhere in a request (docs/decisions.md, Requests and errors): PostgreSQL cannot store NUL in
 * text or `\u0000` in jsonb, nor an unpaired UTF-16 surrogate (a JSON `"\ud800"` escape), and
 * the other C0 control characters have no place in a partner's data. Tab, line feed and carriage
 * return are allowed (free text may be multi-line); DEL and C1 controls are stored as sent.
 * Bodies nested deeper than MAX_NESTING are refused too: nothing in the contract nests that deep,
 * and deeper values could not be serialized or stored.
 */
export const TEXT_MESSAGES = {
  control: "must not contain NUL or other control characters",
  surrogate: "must be valid Unicode text (unpaired surrogate)",
  key: "has a field name that is not valid text (control character or unpaired surrogate)",
  nesting: "is nested too deeply",
} as const;

export const MAX_NESTING = 32;

// C0 controls except \t (09), \n (0A), \r (0D).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type BadText = { path: Array<string | number>; message: string };

/** Why `text` cannot be accepted, or undefined. */
export function textProblem(text: string): string | undefined {
  if (CONTROL.test(text)) return TEXT_MESSAGES.control;
  if (LONE_SURROGATE.test(text)) return TEXT_MESSAGES.surrogate;
  return undefined;
}

/**
 * The first string value or object key in a parsed JSON value that cannot be accepted, with the
 * path to it (a key's problem is reported on the object holding it). Iterative: a 5 MiB body of
 * nested arrays must not exhaust the stack.
 */
export function findBadText(root: unknown, skipTopLevel: ReadonlySet<string> = new Set()): BadText | undefined {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: Array<string | number> };
    if (typeof value === "string") {
      const message = textProblem(value);
      if (message) return { path, message };
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= MAX_NESTING) return { path, message: TEXT_MESSAGES.nesting };
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: [...path, index] });
      continue;
    }
    const entries = Object.entries(value);
    for (const [key] of entries) if (textProblem(key)) return { path, message: TEXT_MESSAGES.key };
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index];
      if (path.length === 0 && skipTopLevel.has(key)) continue;
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * Bad text in a REST request's raw input (JSON body fields, query parameters, and path parameters
 * in their decoded form). Collection items are left to the per-item check (`parseItem`), so one bad
 * item fails alone (spec Common rules 5).
 */
export function findBadTextInRequest(rawInput: unknown, meta: Meta | undefined): BadText | undefined {
  if (typeof rawInput !== "object" || rawInput === null) return findBadText(rawInput);
  const pathParams = new Set(Array.from(meta?.openapi?.path.matchAll(/\{(\w+)\}/g) ?? [], (match) => match[1]));
  const input = rawInput as Record<string, unknown>;
  for (const name of pathParams) {
    const value = input[name];
    const decoded = typeof value === "string" ? decodePathParam(value) : undefined;
    const message = decoded === undefined ? undefined : textProblem(decoded);
    if (message) return { path: [name], message };
  }
  return findBadText(input, meta?.arrayBody ? new Set(["items", ...pathParams]) : pathParams);
}

/** A path parameter as the partner meant it (the adapter passes them percent-encoded), or undefined. */
export function decodePathParam(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
