import type { FieldErrors } from "@/server/errors";

/**
 * What a step's server action answers its form (React `useActionState`). Success answers nothing
 * to show: the action refreshes the page, which renders the new current step from the server.
 * An error keeps what was typed (`values`, never the card number or security code) and carries the
 * messages shown beside each field and in the summary.
 */
export type FormState =
  | { status: "idle"; attempt?: string }
  | { status: "error"; message: string; fields: FieldErrors; values: Record<string, string>; attempt?: string };

export const IDLE: FormState = { status: "idle" };

/** The first message for a field, or undefined. */
export function fieldError(state: FormState, ...names: string[]): string | undefined {
  if (state.status !== "error") return undefined;
  for (const name of names) {
    const message = state.fields[name]?.[0];
    if (message) return message;
  }
  return undefined;
}

/** A value the renter typed before the error, else the fallback (the server's pre-filled value). */
export function keptValue(state: FormState, name: string, fallback = ""): string {
  return state.status === "error" ? (state.values[name] ?? fallback) : fallback;
}
