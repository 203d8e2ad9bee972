import { errorMessage, fieldErrorsOf } from "../../_ui";

/**
 * A failed mutation's field errors (the console's error formatter sends them as `data.fields`),
 * keyed by the form's field names (`scopes.0` → `scopes`), and a general message whenever some
 * failure has no field of the form to be shown beside.
 */
export function failureOf(error: unknown, formFields: readonly string[]): { fields: Record<string, string>; general: string | null } {
  if (!error) return { fields: {}, general: null };
  const raw = fieldErrorsOf(error);
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const [name, messages] of Object.entries(raw)) {
    const field = formFields.find((known) => name === known || name.startsWith(`${known}.`));
    if (field) fields[field] = [fields[field], ...messages].filter(Boolean).join("; ");
    else unplaced.push(`${name}: ${messages.join("; ")}`);
  }
  if (Object.keys(raw).length === 0) return { fields, general: errorMessage(error) };
  return { fields, general: unplaced.length ? `${errorMessage(error)} (${unplaced.join(", ")})` : null };
}

/** The message to show above a form: only when no field carries it. */
export function generalErrorOf(error: unknown): string | null {
  if (!error) return null;
  return Object.keys(fieldErrorsOf(error)).length ? null : errorMessage(error);
}

/** Lines (or commas) of a textarea, trimmed, blanks dropped. */
export const linesOf = (value: FormDataEntryValue | null) =>
  String(value ?? "")
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
