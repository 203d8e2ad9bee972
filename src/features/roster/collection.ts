import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import type { FieldErrors } from "../../server/errors";
import { findBadText, textProblem } from "../../server/http/bad-text";
import { fieldErrorsOf, fieldName } from "../../server/http/input-errors";
import { ROSTER_MESSAGES } from "./messages";

export type Action = "created" | "updated" | "failed";
export type ItemResult = { external_system_id: string | null; action: Action; errors?: FieldErrors };

/** An item-level failure: the item fails, the batch goes on (spec Common rules 5). */
export class ItemFailure extends Error {
  constructor(readonly errors: FieldErrors) {
    super(Object.values(errors).flat().join("; "));
  }
}

export const fail = (field: string, message: string): never => {
  throw new ItemFailure({ [field]: [message] });
};

/** The item's identifier, or null when it has none usable (blank, or text no column can hold: docs/decisions.md, Requests and errors). */
export function externalIdOf(raw: unknown): string | null {
  const value = (raw as { external_system_id?: unknown } | null)?.external_system_id;
  return typeof value === "string" && value.trim() !== "" && !textProblem(value) ? value.trim() : null;
}

/** Parses one item against its schema; field errors are keyed by field name, each a list of messages. */
export function parseItem<S extends z.ZodType>(schema: S, raw: unknown): { ok: true; value: z.output<S> } | { ok: false; errors: FieldErrors } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, errors: { base: [ROSTER_MESSAGES.notAnObject] } };
  // Text that cannot be stored fails the item alone, before its schema (docs/decisions.md, Requests and errors).
  const bad = findBadText(raw);
  if (bad) return { ok: false, errors: { [fieldName(bad.path)]: [bad.message] } };
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, errors: fieldErrorsOf(parsed.error) };
}

export type Parsed<T> = { raw: unknown; parsed: { ok: true; value: T } | { ok: false; errors: FieldErrors } };

/** Parses every item once, so the valid ones can drive the bulk loads before any item is applied. */
export function parseItems<S extends z.ZodType>(schema: S, rawItems: unknown[]): Array<Parsed<z.output<S>>> {
  return rawItems.map((raw) => ({ raw, parsed: parseItem(schema, raw) }));
}

export function validItems<T>(items: Array<Parsed<T>>): T[] {
  return items.flatMap((entry) => (entry.parsed.ok ? [entry.parsed.value] : []));
}

/**
 * spec Common rules 5: applies the items in request order; an invalid item, or one whose `apply`
 * throws an ItemFailure, fails alone with errors keyed by field and the batch goes on.
 */
export function applyInOrder<T extends { external_system_id: string }>(items: Array<Parsed<T>>, apply: (item: T) => "created" | "updated"): ItemResult[] {
  return items.map(({ raw, parsed }) => {
    const externalId = externalIdOf(raw);
    if (!parsed.ok) return { external_system_id: externalId, action: "failed", errors: parsed.errors };
    try {
      return { external_system_id: parsed.value.external_system_id, action: apply(parsed.value) };
    } catch (error) {
      if (!(error instanceof ItemFailure)) throw error;
      return { external_system_id: externalId, action: "failed", errors: error.errors };
    }
  });
}

/** spec Common rules 6: `status_code`, `results` in request order, `meta` counts. */
export function collectionResponse<R extends ItemResult>(results: R[]) {
  const meta = { created: 0, updated: 0, failed: 0 };
  for (const result of results) meta[result.action]++;
  return { status_code: 200 as const, results, meta };
}

/**
 * Whether an item left a row's columns as they were: compared as stored (JSON, so a jsonb value read
 * back with its keys reordered, or an absent key against an undefined one, is the same value).
 */
export function sameStored<T extends object>(before: T, after: T, keys: ReadonlyArray<keyof T> = Object.keys(before) as Array<keyof T>): boolean {
  for (const key of keys) {
    const [a, b] = [before[key], after[key]];
    if (a === b || (a == null && b == null)) continue;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))) return false;
  }
  return true;
}
