import { z } from "zod";
import type { Db } from "../../../server/db/client";
import { decryptSecret } from "../../../server/secrets";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { ROTATION_WINDOW_MS, rotateOwnerSecret } from "../../webhooks/secrets";
import { lockedLiveOwner } from "./settings";

/**
 * An owner's webhook signing secret in the console (spec Webhook signing secret; decisions §4
 * `owner secret`, `owner rotate-secret`; §12 Access). Revealing is an explicit, audited action; the
 * audit rows never hold a secret, only that it was revealed or rotated and the rotation window.
 */

export const signingSecretAnswer = z.object({
  signing_secret: z.string(),
  /** When the secret replaced by the last rotation stops being signed with, if it still is. */
  previous_valid_until: z.string().nullable(),
});
type SigningSecretAnswer = z.infer<typeof signingSecretAnswer>;

const validUntil = (expiresAt: Date | null, now: Date) => (expiresAt && expiresAt > now ? expiresAt.toISOString() : null);

export async function revealOwnerSecret(db: Db, actor: AuditActor, slug: string, now = new Date()): Promise<SigningSecretAnswer> {
  return db.transaction(async (tx) => {
    const owner = await lockedLiveOwner(tx, slug);
    await recordAudit(tx, actor, { action: "owner.signing_secret_revealed", subject: { type: "owner", id: owner.slug }, ownerId: owner.id });
    return { signing_secret: decryptSecret(owner.signingSecretEncrypted), previous_valid_until: validUntil(owner.previousSigningSecretExpiresAt, now) };
  });
}

/**
 * A new secret; the one it replaces is still signed with for ROTATION_WINDOW_MS (deliveries carry
 * both signatures). A secret replaced by an earlier rotation whose window is still open stops at once.
 */
export async function rotateOwnerSecretByStaff(db: Db, actor: AuditActor, slug: string, now = new Date()): Promise<SigningSecretAnswer> {
  return db.transaction(async (tx) => {
    const owner = await lockedLiveOwner(tx, slug);
    const secret = await rotateOwnerSecret(tx, owner.id, now);
    const previousValidUntil = new Date(now.getTime() + ROTATION_WINDOW_MS).toISOString();
    await recordAudit(tx, actor, {
      action: "owner.signing_secret_rotated",
      subject: { type: "owner", id: owner.slug },
      ownerId: owner.id,
      before: { previous_valid_until: validUntil(owner.previousSigningSecretExpiresAt, now) },
      after: { previous_valid_until: previousValidUntil },
    });
    return { signing_secret: secret, previous_valid_until: previousValidUntil };
  });
}
