import { TRPCClientError } from "@trpc/client";

/** The field messages of a failed console mutation (`{fields}` of the one error model), or none. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  if (error instanceof TRPCClientError) return ((error.data as { fields?: Record<string, string[]> } | undefined)?.fields ?? {}) as Record<string, string[]>;
  return {};
}

/** The message to show above a form: only when no field carries it. */
export function generalErrorOf(error: unknown): string | null {
  if (!error) return null;
  return Object.keys(fieldErrorsOf(error)).length ? null : error instanceof Error ? error.message : "Something went wrong";
}

/** Lines of a textarea, trimmed, blanks dropped. */
export const linesOf = (value: FormDataEntryValue | null) =>
  String(value ?? "")
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
