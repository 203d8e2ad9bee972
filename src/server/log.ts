import pino from "pino";
import { getConfig } from "./config";
import { ERROR_SERIALIZERS, redactedMessage } from "./log-redaction";
import { activeTraceIds } from "./observability/tracing";

/**
 * JSON logs. Secrets never reach a log line: known secret-bearing keys are redacted wherever they
 * appear, and request bodies are never logged.
 */
const REDACT = [
  "client_secret",
  "*.client_secret",
  "access_token",
  "*.access_token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "password",
  "*.password",
  "account_number",
  "*.account_number",
  "social_security_number",
  "*.social_security_number",
  "signing_secret",
  "*.signing_secret",
  "x-request-signature",
  "*.x-request-signature",
];

let root: pino.Logger | undefined;

export function logger(): pino.Logger {
  if (!root) {
    root = pino({
      level: getConfig().logLevel,
      base: { service: "partner-integration-service" },
      redact: { paths: REDACT, censor: "[redacted]" },
      // A failed statement's parameters never reach a line (docs/decisions.md, "Second security review").
      serializers: ERROR_SERIALIZERS,
      hooks: {
        // `logger().error(error)` makes the error's message the line's `msg`: without its parameters.
        logMethod(args, method) {
          const [first, ...rest] = args as unknown[];
          if (first instanceof Error && rest.length === 0) return method.apply(this, [first, redactedMessage(first)] as never);
          return method.apply(this, args);
        },
      },
      timestamp: pino.stdTimeFunctions.isoTime,
      // decisions §14: a line written while a trace is active carries its `trace_id` (and `span_id`).
      mixin: activeTraceIds,
    });
  }
  return root;
}
