import type { EventName } from "./catalog";

export type RecordRefs = { sourceProspectId: string | null; policyNumber: string | null; moveOutId: number | null };

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * The records an event is about, as its payload names them (spec Events: payload tables), kept
 * beside the event so the console finds deliveries by them (docs/decisions.md, "Console: deliveries"). `prospect.created`
 * carries the partner's `source_prospect_id` as its `id` (spec Prospect payload).
 */
export function recordRefsOf(event: EventName, data: Record<string, unknown>): RecordRefs {
  const moveOutId = data.move_out_id;
  return {
    sourceProspectId: text(data.source_prospect_id) ?? (event === "prospect.created" ? text(data.id) : null),
    policyNumber: text(data.policy_number),
    moveOutId: typeof moveOutId === "number" && Number.isInteger(moveOutId) ? moveOutId : null,
  };
}
