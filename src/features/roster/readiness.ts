import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";

/**
 * spec Property owner activation: the purchase flow is enabled "after roster loaded": a default
 * payout account and at least one active building with a unit.
 */
export async function isRosterLoaded(tx: Tx, ownerId: number): Promise<boolean> {
  const [row] = await tx.execute<{ loaded: boolean }>(sql`
    select exists (select 1 from bank_accounts where owner_id = ${ownerId} and is_default)
       and exists (select 1 from properties p join units u on u.property_id = p.id where p.owner_id = ${ownerId} and p.active) as loaded`);
  return row.loaded;
}
