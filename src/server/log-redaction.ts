import pino from "pino";

/**
 * What an error may say in a log line (docs/decisions.md, "Second security review"). A failed
 * statement carries its parameters (names, emails, dates of birth, webhook bodies): drizzle's
 * `DrizzleQueryError` keeps them as `params` and repeats them in its message and stack
 * (`Failed query: …\nparams: …`), postgres.js as `parameters`/`args` (debug), and PostgreSQL's own
 * `detail` repeats the key or the failing row (`Key (email)=(…) already exists`, `Failing row contains
 * (…)`). The statement's text, the constraint, the code and the stack's frames stay: they say what
 * failed without whose data.
 */
const PARAMETER_KEYS = new Set(["params", "parameters", "args"]);
export const REDACTED = "[redacted]";

/** `Failed query: …\nparams: a,b` keeps its statement; the parameters line (up to the stack's frames) goes. */
function scrubText(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/g, `\nparams: ${REDACTED}`);
}

function scrubDetail(detail: string): string {
  return detail.replace(/=\([\s\S]*\)/, `=(${REDACTED})`).replace(/contains \([\s\S]*\)/, `contains (${REDACTED})`);
}

/**
 * A serialized error (pino's own shape: type, message, stack, own fields), its parameters removed,
 * with `causes`: each cause's own fields (a PostgreSQL error's code, constraint, table, its detail
 * without the values), which pino would only append to the message.
 */
export function redactError(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const serialized = scrub(pino.stdSerializers.err(value), 0) as Record<string, unknown>;
  const causes: unknown[] = [];
  for (let cause = value.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const { stack: _stack, ...fields } = scrub(pino.stdSerializers.err(cause), 0) as Record<string, unknown>;
    causes.push(fields);
  }
  return causes.length > 0 ? { ...serialized, causes } : serialized;
}

/** An error's message with its parameters removed (for loggers that keep only name, code and message). */
export function redactedMessage(error: Error): string {
  return scrubText(error.message);
}

function scrub(value: unknown, depth: number): unknown {
  if (depth > 8 || value === null || typeof value !== "object") return typeof value === "string" ? scrubText(value) : value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (PARAMETER_KEYS.has(key)) out[key] = REDACTED;
    else if (key === "detail" && typeof field === "string") out[key] = scrubDetail(field);
    else if (field instanceof Error) out[key] = scrub(pino.stdSerializers.err(field), depth + 1);
    else out[key] = scrub(field, depth + 1);
  }
  return out;
}

/** The serializers of every logger: each key that may hold an error. */
export const ERROR_SERIALIZERS = { err: redactError, error: redactError, cause: redactError } as const;
