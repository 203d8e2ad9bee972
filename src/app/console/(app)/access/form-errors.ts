import { TRPCClientError } from "@trpc/client";
import { errorMessage } from "../../_ui";

/**
 * A failed mutation's field errors (the console's error formatter sends them as `data.fields`),
 * keyed by the form's field names (`scopes.0` → `scopes`), and a general message whenever some
 * failure has no field of the form to be shown beside.
 */
export function failureOf(error: unknown, formFields: readonly string[]): { fields: Record<string, string>; general: string | null } {
  if (!error) return { fields: {}, general: null };
  const raw = error instanceof TRPCClientError ? ((error.data as { fields?: Record<string, string[]> } | undefined)?.fields ?? {}) : {};
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
