import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";

const ROSTER_LOCK_SPACE = 7_420_100;

/**
 * Serializes roster writes of one owner for the rest of the transaction, so two identical batches
 * sent at once create each building and unit once (issue: concurrency). Unique indexes back it up.
 */
export async function lockOwnerRoster(tx: Tx, ownerId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ROSTER_LOCK_SPACE}, ${ownerId})`);
}
