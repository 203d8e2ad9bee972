import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { sources } from "../prospects/sources.table";
import { prospects } from "../prospects/tables";

export type ResetResult = { user_ids: number[]; prospect_ids: number[]; policy_ids: number[]; resident_ids: number[] };

/**
 * spec Reset rule (staging only): clears the renter's records under the owner so the same email
 * can enroll again; idempotent (nothing to clear answers empty lists); never creates anything.
 * Today the service holds prospects for a renter; users, policies and residents are cleared here
 * too as those features land, and their id lists are then filled. Only what the calling client can
 * reach is cleared: the prospects of its own sources (issue 9 item 4: partners sharing an owner
 * never touch each other's records).
 */
export async function resetRenter(tx: Tx, ownerId: number, clientId: string, email: string): Promise<ResetResult> {
  const deleted = await tx
    .delete(prospects)
    .where(
      and(
        eq(prospects.ownerId, ownerId),
        sql`lower(${prospects.email}) = ${email.trim().toLowerCase()}`,
        inArray(prospects.sourceId, tx.select({ id: sources.id }).from(sources).where(eq(sources.clientId, clientId))),
      ),
    )
    .returning({ id: prospects.id });
  return { user_ids: [], prospect_ids: deleted.map((row) => row.id).sort((a, b) => a - b), policy_ids: [], resident_ids: [] };
}
