import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../server/db/client";
import { propertyOwners } from "../owners.table";

/**
 * The merge gate (decisions §12: "writes under either slug during a merge wait for it and are never
 * lost"). Every owner-scoped partner write takes this owner's gate shared, as the first lock of its
 * transaction; a merge takes the gates of both owners exclusively, first too, in id order. So a merge
 * waits for the writes already running, and writes that arrive meanwhile wait for the merge; after
 * it, a write that named the duplicate acts on the survivor.
 */
const MERGE_GATE_SPACE = 7_420_200;

type GatedOwner = typeof propertyOwners.$inferSelect;

/**
 * Takes the gate of `owner` shared and, when the owner was merged (possibly while this write
 * waited), redirects the write: `owner` is updated in place to the survivor, the object the caller's
 * procedure reads. The survivor's gate is taken as well.
 */
export async function enterOwnerWrite(tx: Tx, owner: GatedOwner): Promise<void> {
  for (let hop = 0; hop < 4; hop++) {
    // Sent together, one round trip: on the transaction's one connection the server runs the read
    // (and takes its snapshot) only once the lock is held, so it sees a merge that committed meanwhile.
    const [, [row]] = await Promise.all([
      tx.execute(sql`select pg_advisory_xact_lock_shared(${MERGE_GATE_SPACE}, ${owner.id})`),
      tx.select().from(propertyOwners).where(eq(propertyOwners.id, owner.id)),
    ]);
    if (!row) return;
    if (row.mergedIntoId === null) {
      Object.assign(owner, row);
      return;
    }
    const [survivor] = await tx.select().from(propertyOwners).where(eq(propertyOwners.id, row.mergedIntoId));
    Object.assign(owner, survivor);
  }
}

/**
 * The gate alone, for writes that know only the owner's id (the enrollment flow's jobs): rows read
 * after it, under their own locks, carry the owner a merge that ran meanwhile left them with.
 */
export async function enterOwnerGate(tx: Tx, ownerId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${MERGE_GATE_SPACE}, ${ownerId})`);
}

/** The merge's side of the gate: both owners, exclusively, in id order (so two merges never deadlock). */
export async function closeGatesForMerge(tx: Tx, ownerIds: number[]): Promise<void> {
  for (const id of [...ownerIds].sort((a, b) => a - b)) {
    await tx.execute(sql`select pg_advisory_xact_lock(${MERGE_GATE_SPACE}, ${id})`);
  }
}

/**
 * The database as an owner-scoped write sees it: every transaction it opens enters the gate of the
 * request's owner before running the procedure's work. Reads outside transactions are untouched.
 */
export function gatedDb(db: Db, owner: GatedOwner): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "transaction") return Reflect.get(target, property, receiver);
      const transaction: Db["transaction"] = (work, config) =>
        target.transaction(async (tx) => {
          await enterOwnerWrite(tx, owner);
          return work(tx);
        }, config);
      return transaction;
    },
  });
}
