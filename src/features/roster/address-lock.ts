import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { recordAddressHistory } from "./address-history";
import { properties } from "./roster.table";

/**
 * spec Property rules, Address derivation: derivation stops once any policy exists against the
 * building. The first policy locks the address (a staff correction keeps its own lock) and the lock
 * is written to the derivation history with the address it froze.
 */
export async function lockAddressForPolicy(tx: Tx, propertyId: number): Promise<void> {
  const locked = await tx
    .update(properties)
    .set({ addressLockedAt: new Date(), addressLockedReason: "policy_issued" })
    .where(and(eq(properties.id, propertyId), isNull(properties.addressLockedAt)))
    .returning({ lineOne: properties.addressLineOne, city: properties.city, state: properties.state, zip: properties.zip });
  await recordAddressHistory(
    tx,
    locked.map((address) => ({ ...address, propertyId, source: "policy_lock" })),
  );
}
