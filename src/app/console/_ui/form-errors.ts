import { errorMessage, fieldErrorsOf } from "./trpc";

/**
 * A failed mutation's field errors (the console's error formatter sends them as `data.fields`),
 * keyed by the form's field names (`scopes.0` → `scopes`; `aliases` names a server field the form
 * calls otherwise, such as `redirect_domain` → `redirect_domains`), and a general message whenever
 * some failure has no field of the form to be shown beside. `base` (an invalid input with no field)
 * is the general message itself.
 */
export function failureOf(
  error: unknown,
  formFields: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): { fields: Record<string, string>; general: string | null } {
  if (!error) return { fields: {}, general: null };
  const raw = fieldErrorsOf(error);
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const [name, messages] of Object.entries(raw)) {
    if (name === "base") continue;
    const known = aliases[name] ?? name;
    const field = formFields.find((formField) => known === formField || known.startsWith(`${formField}.`));
    if (field) fields[field] = [fields[field], ...messages].filter(Boolean).join("; ");
    else unplaced.push(`${name}: ${messages.join("; ")}`);
  }
  if (Object.keys(fields).length === 0 && unplaced.length === 0) return { fields, general: errorMessage(error) };
  return { fields, general: unplaced.length ? `${errorMessage(error)} (${unplaced.join(", ")})` : null };
}

/** Lines (or commas) of a textarea, trimmed, blanks dropped. */
export const linesOf = (value: unknown) =>
  String(value ?? "")
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
