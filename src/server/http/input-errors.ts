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

/** Field name of a path within the resource, e.g. `address.zip` or `residents.0.role`. */
export function fieldName(path: ReadonlyArray<PropertyKey>, resourceKey?: string): string {
  const names = path.map(String);
  if (resourceKey && names[0] === resourceKey) names.shift();
  if (names.length && WRAPPER_KEYS.has(names[0])) names.shift();
  return names.join(".") || "base";
}

export function messageOf(issue: Issue): string {
  // A schema's own message wins; zod's default for a missing value becomes "is required".
  if (issue.code === "invalid_type" && issue.input === undefined && issue.message.startsWith("Invalid input")) return "is required";
  if (issue.code === "unrecognized_keys") return `has unknown fields: ${issue.keys.join(", ")}`;
  return issue.message;
}

/** One reason a request is invalid, at a path within the input. */
export type InputProblem = { path: ReadonlyArray<PropertyKey>; message: string };

const problemsOf = (zodError: ZodError): InputProblem[] => zodError.issues.map((issue) => ({ path: issue.path, message: messageOf(issue) }));

function fieldErrors(problems: InputProblem[], resourceKey?: string): FieldErrors {
  const fields: FieldErrors = {};
  for (const { path, message } of problems) {
    const field = fieldName(path, resourceKey);
    fields[field] = [...(fields[field] ?? []), message];
  }
  return fields;
}

export function fieldErrorsOf(zodError: ZodError, resourceKey?: string): FieldErrors {
  return fieldErrors(problemsOf(zodError), resourceKey);
}

/** The specification's answer to an invalid request, by the route's declared style (init.ts). */
export function inputErrorFor(style: InputErrorStyle | undefined, zodError: ZodError): AppError {
  return invalidInput(style, problemsOf(zodError));
}

/** The same answer for problems found outside zod (bad text: docs/decisions.md, Requests and errors). */
export function invalidInput(style: InputErrorStyle | undefined, problems: InputProblem[]): AppError {
  switch (style?.kind) {
    case "oauth":
      return errors.oauth("invalid_request", summarize(fieldErrors(problems)));
    case "resource":
      return errors.invalidResource(style.error, style.key, fieldErrors(problems, style.key));
    case "fields":
      return errors.invalidFields(style.error, fieldErrors(problems));
    default:
      return errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, fieldErrors(problems));
  }
}

function summarize(fields: FieldErrors): string {
  return Object.entries(fields)
    .map(([field, messages]) => `${field} ${messages.join(", ")}`)
    .join("; ");
}
