import { eq } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { errors } from "../../server/errors";
import { addJob } from "../../server/jobs/define-task";
import { type AuditActor, recordAudit } from "../audit/audit";
import { MESSAGE_MESSAGES as M } from "./messages";
import { newMessageId, RETRY_WINDOW_MS, sendJobKey } from "./queue";
import { renterMessages } from "./renter-messages.table";
import { renterMessageSendTask } from "./send.declaration";

/**
 * The console's resend (decisions §19, operators): a new message copying the original's address,
 * subject and data, with its own attempts, 24 hours and Message-ID, linked to the original, which
 * keeps its record (its failure and the server's answer). Audited. A message still queued or being
 * sent is refused: it may yet go out.
 */
export async function resendMessage(db: Db, actor: AuditActor, id: number): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const [original] = await tx.select().from(renterMessages).where(eq(renterMessages.id, id)).for("update");
    if (!original) throw errors.notFound(M.notFound);
    if (original.status === "queued" || original.status === "sending") throw errors.conflict(M.stillSending);
    const [copy] = await tx
      .insert(renterMessages)
      .values({
        kind: original.kind,
        toAddress: original.toAddress,
        subject: original.subject,
        data: original.data,
        giveUpAt: new Date(Date.now() + RETRY_WINDOW_MS),
        messageId: newMessageId(),
        ownerId: original.ownerId,
        policyId: original.policyId,
        policyNumber: original.policyNumber,
        resentFromId: original.id,
      })
      .returning({ id: renterMessages.id });
    await addJob(tx, renterMessageSendTask, { messageId: copy.id }, { jobKey: sendJobKey(copy.id) });
    await recordAudit(tx, actor, {
      action: "messages.resend",
      subject: { type: "renter_message", id: original.id },
      ownerId: original.ownerId,
      before: { status: original.status, last_answer: original.lastAnswer },
      after: { resent_as: copy.id },
    });
    return copy;
  });
}
