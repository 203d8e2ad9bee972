import type { ZodError } from "zod";
import { type AppError, errors, type FieldErrors, GATEWAY_MESSAGES } from "../errors";

/**
 * How a request's input validation failure is answered (spec Errors, Body shapes):
 * - `oauth`: token exchange, `{error: "invalid_request", error_description}` (400)
 * - `fields`: `{status_code: 422, error, errors: {field: [messages]}}`
 * - `resource`: `{status_code: 422, error, <key>: {field: message}}` (prospects, move-outs)
 */
export type InputErrorStyle = { kind: "oauth" } | { kind: "fields"; error: string } | { kind: "resource"; key: string; error: string };

type Issue = ZodError["issues"][number];

/** Wrapper keys the REST layer adds around a body (`{items}` for arrays, path parameters). */
const WRAPPER_KEYS = new Set(["items"]);

export function isInputValidationError(error: Error): error is Error & { cause: ZodError } {
  const cause = (error as { cause?: unknown }).cause;
  return (error as { code?: string }).code === "BAD_REQUEST" && cause instanceof Error && cause.name === "ZodError";
}

/** Field name of an issue: its path within the resource, e.g. `address.zip` or `residents.0.role`. */
export function fieldOf(issue: Issue, resourceKey?: string): string {
  const path = issue.path.map(String);
  if (resourceKey && path[0] === resourceKey) path.shift();
  if (path.length && WRAPPER_KEYS.has(path[0])) path.shift();
  return path.join(".") || "base";
}

export function messageOf(issue: Issue): string {
  // A schema's own message wins; zod's default for a missing value becomes "is required".
  if (issue.code === "invalid_type" && issue.input === undefined && issue.message.startsWith("Invalid input")) return "is required";
  if (issue.code === "unrecognized_keys") return `has unknown fields: ${issue.keys.join(", ")}`;
  return issue.message;
}

export function fieldErrorsOf(zodError: ZodError, resourceKey?: string): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of zodError.issues) {
    const field = fieldOf(issue, resourceKey);
    fields[field] = [...(fields[field] ?? []), messageOf(issue)];
  }
  return fields;
}

/** The specification's answer to an invalid request, by the route's declared style (init.ts). */
export function inputErrorFor(style: InputErrorStyle | undefined, zodError: ZodError): AppError {
  switch (style?.kind) {
    case "oauth":
      return errors.oauth("invalid_request", summarize(fieldErrorsOf(zodError)));
    case "resource":
      return errors.invalidResource(style.error, style.key, fieldErrorsOf(zodError, style.key));
    case "fields":
      return errors.invalidFields(style.error, fieldErrorsOf(zodError));
    default:
      return errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, fieldErrorsOf(zodError));
  }
}

function summarize(fields: FieldErrors): string {
  return Object.entries(fields)
    .map(([field, messages]) => `${field} ${messages.join(", ")}`)
    .join("; ");
}
