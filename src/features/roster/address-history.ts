import type { Tx } from "../../server/db/client";
import { type AddressSource, addressHistory } from "./address-history.table";
import { insertRows } from "./bulk";

/** A building's stored address, as the roster keeps it (line, city, two-letter state, five-digit zip). */
export type StoredAddress = { lineOne: string; city: string; state: string; zip: string };

export type AddressHistoryEntry = StoredAddress & { propertyId: number; source: AddressSource; actor?: string | null };

export const sameAddress = (a: StoredAddress, b: StoredAddress) => a.lineOne === b.lineOne && a.city === b.city && a.state === b.state && a.zip === b.zip;

/** Appends to the derivation history in the caller's transaction (one statement). */
export async function recordAddressHistory(tx: Tx, entries: AddressHistoryEntry[]): Promise<void> {
  if (!entries.length) return;
  await insertRows(
    tx,
    addressHistory,
    entries.map(({ propertyId, source, lineOne, city, state, zip, actor }) => ({ propertyId, source, lineOne, city, state, zip, actor: actor ?? null })),
  );
}
