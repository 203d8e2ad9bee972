import { and, eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import type { Owner } from "../owners/service";
import { emitEvent } from "../webhooks/emit";
import { moveOutPayload } from "../webhooks/payloads";
import type { CreateMoveOutInput } from "./api/move-outs.types";
import { MOVE_OUT_MESSAGES } from "./messages";
import { type MoveOut, moveOuts } from "./move-outs.table";

/**
 * spec Move-out rules 1: re-posting an existing `external_id` returns the existing move-out
 * unchanged. A concurrent duplicate loses the insert race and reads the winner's row. The move-out
 * belongs to the client that created it (docs/decisions.md, Move-outs and reset): the key is unique per owner, so another
 * partner sharing the owner cannot have its own under that key; it is told only that the key is
 * taken (the spec's own answer to a duplicate key, as for a prospect), never the move-out.
 */
export async function createMoveOut(tx: Tx, owner: Owner, clientId: string, input: CreateMoveOutInput): Promise<{ moveOut: MoveOut; created: boolean }> {
  const ownerId = owner.id;
  const [created] = await tx
    .insert(moveOuts)
    .values({
      ownerId,
      clientId,
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
    // spec Event catalog: move_out.initiated when a move-out is created through the API. A move-out
    // stands alone: it belongs to the owner's building whose external_system_id its property names.
    const building = { externalId: created.property.external_id };
    await emitEvent(tx, { ownerId, ownerSlug: owner.slug, event: "move_out.initiated", data: moveOutPayload(created), clientId, building });
    return { moveOut: created, created: true };
  }
  const [existing] = await tx
    .select()
    .from(moveOuts)
    .where(and(eq(moveOuts.ownerId, ownerId), eq(moveOuts.externalId, input.external_id)));
  if (existing.clientId !== clientId) throw errors.invalidResource(MOVE_OUT_MESSAGES.invalid, "move_out", { external_id: [MOVE_OUT_MESSAGES.taken] });
  return { moveOut: existing, created: false };
}

/** spec Move-out rules 2: another owner's move-out is not found, nor another partner's under the same owner. */
export async function findMoveOut(tx: Tx, ownerId: number, clientId: string, id: string): Promise<MoveOut | undefined> {
  if (!/^\d{1,9}$/.test(id)) return undefined;
  const [moveOut] = await tx
    .select()
    .from(moveOuts)
    .where(and(eq(moveOuts.ownerId, ownerId), eq(moveOuts.clientId, clientId), eq(moveOuts.id, Number(id))));
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
