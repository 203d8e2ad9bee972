import { sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { idArray } from "../../server/db/id-array";
import { addressDisagreements } from "./roster.table";

export type DisagreementRow = typeof addressDisagreements.$inferInsert;
/** Each locked building's latest disagreement of each source, keyed `<property id>:<source>`. */
export type LatestDisagreements = Map<string, DisagreementRow>;

/**
 * The latest disagreement recorded for each source of the given (locked) buildings, so a re-send
 * that proposes the same address again records nothing new (docs/decisions.md, Roster batch speed).
 */
export async function latestDisagreements(tx: Tx, lockedIds: number[]): Promise<LatestDisagreements> {
  if (!lockedIds.length) return new Map();
  const rows = await tx.execute<DisagreementRow>(sql`
    select distinct on (property_id, source) property_id as "propertyId", source, stored_line_one as "storedLineOne",
      proposed_line_one as "proposedLineOne", proposed_city as "proposedCity", proposed_state as "proposedState", proposed_zip as "proposedZip"
    from ${addressDisagreements}
    where property_id = any(${idArray(lockedIds)})
    order by property_id, source, id desc`);
  return new Map(rows.map((row) => [`${row.propertyId}:${row.source}`, row]));
}

/** Whether the building's latest disagreement of this source already says exactly this. */
export function alreadyRecorded(latest: LatestDisagreements, propertyId: number, entry: Omit<DisagreementRow, "propertyId">): boolean {
  const last = latest.get(`${propertyId}:${entry.source}`);
  return (
    last !== undefined &&
    last.storedLineOne === entry.storedLineOne &&
    last.proposedLineOne === entry.proposedLineOne &&
    last.proposedCity === entry.proposedCity &&
    last.proposedState === entry.proposedState &&
    last.proposedZip === entry.proposedZip
  );
}
