import { and, eq, gt } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { decryptSecret, encryptSecret } from "../../server/secrets";
import { ownerMerges } from "../owners/merge/merge.table";
import { propertyOwners } from "../owners/owners.table";
import { newSigningSecret } from "../owners/service";
import { providers } from "./providers.table";
import type { WebhookEndpoint } from "./webhooks.table";

/** A rotated-out secret stays valid this long, signed alongside the new one (issue: rotation window). */
export const ROTATION_WINDOW_MS = 24 * 60 * 60 * 1000;

type SecretColumns = { signingSecretEncrypted: string; previousSigningSecretEncrypted: string | null; previousSigningSecretExpiresAt: Date | null };

function activeSecrets(row: SecretColumns, now: Date): string[] {
  const secrets = [decryptSecret(row.signingSecretEncrypted)];
  if (row.previousSigningSecretEncrypted && row.previousSigningSecretExpiresAt && row.previousSigningSecretExpiresAt > now) {
    secrets.push(decryptSecret(row.previousSigningSecretEncrypted));
  }
  return secrets;
}

/** Decrypted secrets are reused for a few seconds: a rotation reaches every worker within that time. */
const CACHE_MS = 5_000;
const cache = new Map<string, { secrets: string[]; until: number }>();
/** Reads in progress: the attempts of one claim to one owner share a single read (docs/decisions.md, "Delivery engine: a dispatcher per worker"). */
const loading = new Map<string, Promise<string[]>>();

/** spec Webhook signing secret: the owner's, or the provider subscription's for its endpoints. */
export async function signingSecretsFor(tx: Tx, endpoint: WebhookEndpoint, now: Date): Promise<string[]> {
  const key = endpoint.providerId !== null ? `provider:${endpoint.providerId}` : `owner:${endpoint.ownerId}`;
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.secrets;
  const running = loading.get(key);
  if (running) return running;
  const load = loadSecrets(tx, endpoint, now).then((secrets) => {
    cache.set(key, { secrets, until: Date.now() + CACHE_MS });
    return secrets;
  });
  loading.set(key, load);
  try {
    return await load;
  } finally {
    loading.delete(key);
  }
}

async function loadSecrets(tx: Tx, endpoint: WebhookEndpoint, now: Date): Promise<string[]> {
  if (endpoint.providerId !== null) {
    const [provider] = await tx.select().from(providers).where(eq(providers.id, endpoint.providerId));
    return activeSecrets(provider, now);
  }
  const ownerId = endpoint.ownerId as number;
  const [[owner], merged] = await Promise.all([
    tx.select().from(propertyOwners).where(eq(propertyOwners.id, ownerId)),
    // decisions §12 Owners: a merged duplicate's secret stays valid beside the survivor's for 24 h.
    tx
      .select({ secret: ownerMerges.fromSigningSecretEncrypted })
      .from(ownerMerges)
      .where(and(eq(ownerMerges.intoOwnerId, ownerId), gt(ownerMerges.secretValidUntil, now))),
  ]);
  return [...activeSecrets(owner, now), ...merged.map((row) => decryptSecret(row.secret))];
}

/** Drops the cached secrets of these owners (a merge changes what they sign with). */
export function forgetSigningSecrets(ownerIds: number[]): void {
  for (const id of ownerIds) {
    cache.delete(`owner:${id}`);
    loading.delete(`owner:${id}`);
  }
}

/** Rotation: a new secret; the old one is still signed with for 24 hours. Returns the new secret. */
export async function rotateOwnerSecret(tx: Tx, ownerId: number, now = new Date()): Promise<string> {
  const [owner] = await tx.select().from(propertyOwners).where(eq(propertyOwners.id, ownerId)).for("update");
  const secret = newSigningSecret();
  await tx
    .update(propertyOwners)
    .set({
      signingSecretEncrypted: encryptSecret(secret),
      previousSigningSecretEncrypted: owner.signingSecretEncrypted,
      previousSigningSecretExpiresAt: new Date(now.getTime() + ROTATION_WINDOW_MS),
    })
    .where(eq(propertyOwners.id, ownerId));
  cache.delete(`owner:${ownerId}`);
  return secret;
}
