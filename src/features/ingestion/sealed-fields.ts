import { decryptSecret, encryptSecret } from "../../server/secrets";
import { NEVER_ECHOED_FIELDS } from "../prospects/schemas";

/**
 * Never-echoed values at rest (docs/decisions.md, Hardening: ingestion): a stored event body holds
 * none of the never-echoed prospect fields (spec Prospect) in the clear. They are taken out of the
 * body (top level and `data`) before it is stored, sealed together as one value, and put back only
 * in memory when the event is applied.
 */
type Json = Record<string, unknown>;
type Taken = { top?: Json; data?: Json };

const NEVER_ECHOED = new Set<string>(NEVER_ECHOED_FIELDS);
const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The record without its never-echoed keys, and those keys apart (undefined when there are none). */
function split(record: Json): [Json, Json | undefined] {
  const entries = Object.entries(record);
  const taken = entries.filter(([key]) => NEVER_ECHOED.has(key));
  if (!taken.length) return [record, undefined];
  return [Object.fromEntries(entries.filter(([key]) => !NEVER_ECHOED.has(key))), Object.fromEntries(taken)];
}

function take(body: Json): { body: Json; taken?: Taken } {
  const [kept, top] = split(body);
  const [data, fromData] = isRecord(kept.data) ? split(kept.data) : [undefined, undefined];
  if (!top && !fromData) return { body };
  return { body: fromData ? { ...kept, data } : kept, taken: { top, data: fromData } };
}

/** The body to store and the sealed never-echoed values (null when the body has none). */
export function sealNeverEchoed(body: Json): { body: Json; sealedFields: string | null } {
  const { body: kept, taken } = take(body);
  return { body: kept, sealedFields: taken ? encryptSecret(JSON.stringify(taken)) : null };
}

/** The body as received: the stored body with its sealed values put back. */
export function unsealNeverEchoed(body: unknown, sealedFields: string | null): unknown {
  if (!sealedFields || !isRecord(body)) return body;
  const taken = JSON.parse(decryptSecret(sealedFields)) as Taken;
  const whole: Json = { ...body, ...taken.top };
  if (taken.data) whole.data = { ...(isRecord(whole.data) ? whole.data : {}), ...taken.data };
  return whole;
}

/** The body without never-echoed values; undefined when it holds none (events stored before sealing). */
export function withoutNeverEchoed(body: unknown): Json | undefined {
  if (!isRecord(body)) return undefined;
  const { body: kept, taken } = take(body);
  return taken ? kept : undefined;
}
