import { and, eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import type { Owner } from "../owners/service";
import { emitEvent } from "../webhooks/emit";
import { moveOutPayload } from "../webhooks/payloads";
import type { CreateMoveOutInput } from "./api/move-outs.types";
import { type MoveOut, moveOuts } from "./tables";

/**
 * spec Move-out rules 1: re-posting an existing `external_id` returns the existing move-out
 * unchanged. A concurrent duplicate loses the insert race and reads the winner's row.
 */
export async function createMoveOut(tx: Tx, owner: Owner, input: CreateMoveOutInput): Promise<{ moveOut: MoveOut; created: boolean }> {
  const ownerId = owner.id;
  const [created] = await tx
    .insert(moveOuts)
    .values({
      ownerId,
      externalId: input.external_id,
      moveOutDate: input.move_out_date,
      property: input.property,
      unit: input.unit ?? null,
      residents: input.residents,
      refundAmountCents: input.refund_amount_cents ?? null,
      depositAmountCents: input.deposit_amount_cents ?? null,
      leaseStart: input.lease_start ?? null,
      leaseEnd: input.lease_end ?? null,
    })
    .onConflictDoNothing({ target: [moveOuts.ownerId, moveOuts.externalId] })
    .returning();
  if (created) {
    // spec Event catalog: move_out.initiated when a move-out is created through the API.
    await emitEvent(tx, { ownerId, ownerSlug: owner.slug, event: "move_out.initiated", data: moveOutPayload(created) });
    return { moveOut: created, created: true };
  }
  const [existing] = await tx
    .select()
    .from(moveOuts)
    .where(and(eq(moveOuts.ownerId, ownerId), eq(moveOuts.externalId, input.external_id)));
  return { moveOut: existing, created: false };
}

/** spec Move-out rules 2: another owner's move-out is not found. */
export async function findMoveOut(tx: Tx, ownerId: number, id: string): Promise<MoveOut | undefined> {
  if (!/^\d{1,9}$/.test(id)) return undefined;
  const [moveOut] = await tx
    .select()
    .from(moveOuts)
    .where(and(eq(moveOuts.ownerId, ownerId), eq(moveOuts.id, Number(id))));
  return moveOut;
}

export function moveOutView(moveOut: MoveOut) {
  return {
    move_out_id: moveOut.id,
    external_id: moveOut.externalId,
    status: moveOut.status,
    move_out_date: moveOut.moveOutDate,
    property: moveOut.property,
    unit: moveOut.unit,
    residents: moveOut.residents,
    refund_amount_cents: moveOut.refundAmountCents,
    deposit_amount_cents: moveOut.depositAmountCents,
    lease_start: moveOut.leaseStart,
    lease_end: moveOut.leaseEnd,
    created_at: moveOut.createdAt.toISOString(),
  };
}
