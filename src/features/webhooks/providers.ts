import { inArray } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { encryptSecret } from "../../server/secrets";
import { findActiveClient } from "../auth/clients";
import { newSigningSecret } from "../owners/service";
import { propertyOwners } from "../owners/tables";
import { providerOwners, providers } from "./providers.table";

/** decisions §4 `provider create`: provisions a provider subscriber and its coverage. */
export async function createProvider(tx: Tx, input: { code: string; clientId: string; ownerSlugs?: string[] }) {
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(input.code)) throw errors.invalid("Provider code must be lowercase letters, digits, '_' or '-'", "code");
  if (!(await findActiveClient(tx, input.clientId))) throw errors.notFound(`No active client ${input.clientId}`);
  const slugs = input.ownerSlugs ?? [];
  const owners = slugs.length
    ? await tx.select({ id: propertyOwners.id, slug: propertyOwners.slug }).from(propertyOwners).where(inArray(propertyOwners.slug, slugs))
    : [];
  const missing = slugs.filter((slug) => !owners.some((owner) => owner.slug === slug));
  if (missing.length) throw errors.notFound(`No owner ${missing.join(", ")}`);
  const [provider] = await tx
    .insert(providers)
    .values({ code: input.code, clientId: input.clientId, signingSecretEncrypted: encryptSecret(newSigningSecret()) })
    .returning();
  if (owners.length) await tx.insert(providerOwners).values(owners.map((owner) => ({ providerId: provider.id, ownerId: owner.id })));
  return { provider: { code: provider.code, client_id: provider.clientId, owners: owners.map((owner) => owner.slug) } };
}
