import { Logger } from "graphile-worker";
import { logger } from "../log";
import { redactedMessage } from "../log-redaction";

/**
 * graphile-worker logs a line per job by default, which costs throughput: keep warnings and errors.
 * Its error lines carry whole driver objects (a `pg` client with its parsed statements: kilobytes a
 * line, dozens a second while the database is away); only the error's name, code and message are kept,
 * the message without a failed statement's parameters (docs/decisions.md, "Second security review").
 */
export const quietWorkerLogger = new Logger(() => (level, message, meta) => {
  if (level === "error") logger().error({ worker: brief(meta) }, message);
  else if (level === "warning") logger().warn({ worker: brief(meta) }, message);
});

function brief(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!meta) return meta;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (value instanceof Error) out[key] = { name: value.name, code: (value as { code?: unknown }).code, message: redactedMessage(value) };
    else if (key === "client" || key === "job" || key === "jobs" || key === "specs") continue;
    else if (value === null || typeof value !== "object") out[key] = value;
  }
  return out;
}
