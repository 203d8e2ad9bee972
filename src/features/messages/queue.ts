import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Tx } from "../../server/db/client";
import { addJob } from "../../server/jobs/define-task";
import { propertyOwners } from "../owners/owners.table";
import { MESSAGE_DATA, type MessageData, SUBJECTS } from "./kinds";
import { type RenterMessageKind, renterMessages } from "./renter-messages.table";
import { renterMessageSendTask } from "./send.declaration";

/** Transient failures are retried for this long after the message is written (decisions §19 Outbox). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Who a message is about, beside its address: the owner (its name goes in the message) and the policy. */
export type MessageRefs = {
  to: string;
  ownerId?: number | null;
  policyId?: number | null;
  policyNumber?: string | null;
  /** One message per cause: a second write with the same key is ignored (a retried job, a cron run twice). */
  dedupeKey?: string;
};

export type RenterMessageInput = { [K in RenterMessageKind]: { kind: K } & MessageData[K] & MessageRefs }[RenterMessageKind];

/**
 * Writes a renter message into the outbox in the caller's transaction (decisions §19 Outbox), with
 * its send job: the message exists exactly when the change that caused it commits. The address is
 * the one given now, never looked up again (docs/decisions.md, "Renter messages: the outbox").
 * Answers the message's id, or undefined when its dedupe key was already used or there is no address.
 */
export async function queueRenterMessage(tx: Tx, input: RenterMessageInput): Promise<number | undefined> {
  const { kind, to, ownerId, policyId, policyNumber, dedupeKey, ...rest } = input;
  const address = to?.trim();
  if (!address) return undefined;
  // The policy number is both a reference (searched in the console) and a figure of most templates.
  const data: Record<string, unknown> = { ...MESSAGE_DATA[kind].parse({ ...rest, policyNumber: policyNumber ?? undefined }) };
  if (ownerId) {
    const [owner] = await tx.select({ name: propertyOwners.name }).from(propertyOwners).where(eq(propertyOwners.id, ownerId));
    if (owner) data.ownerName = owner.name;
  }
  const subject = (SUBJECTS[kind] as (d: Record<string, unknown>) => string)(data);
  const [row] = await tx
    .insert(renterMessages)
    .values({
      kind,
      toAddress: address,
      subject,
      data,
      giveUpAt: new Date(Date.now() + RETRY_WINDOW_MS),
      messageId: newMessageId(),
      ownerId: ownerId ?? null,
      policyId: policyId ?? null,
      policyNumber: policyNumber ?? null,
      dedupeKey: dedupeKey ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: renterMessages.id });
  if (!row) return undefined;
  await addJob(tx, renterMessageSendTask, { messageId: row.id }, { jobKey: sendJobKey(row.id) });
  return row.id;
}

/** One pending send job per message: a newer one (a retry, a resend) replaces it. */
export const sendJobKey = (messageId: number) => `renter_message:${messageId}`;

/** `<random@host>`: the same on every attempt, unguessable, on the service's own host. */
export function newMessageId(): string {
  return `<${randomBytes(12).toString("hex")}@${new URL(getConfig().publicBaseUrl).hostname}>`;
}
