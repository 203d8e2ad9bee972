import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { decryptSecret } from "../../server/secrets";
import { grant, newOwner, unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { emitEvent } from "./emit";
import { createProvider } from "./providers";
import { providers } from "./providers.table";
import { verifySignature, webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries } from "./webhooks.table";

const receiver = receiversOfThisFile();

const deliveriesOf = async (endpointId: string) => (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

const emit = async (owner: { id: number; slug: string }, id: string) =>
  emitEvent(await getDb(), { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.ready", data: { id } });

/** A provider subscription of the partner's client with one endpoint for `prospect.ready`. */
async function providerEndpoint(partner: Awaited<ReturnType<typeof webhookPartner>>, url: string, ownerSlugs?: string[]) {
  const code = unique("prov");
  await createProvider(await getDb(), { code, clientId: partner.client.clientId, ownerSlugs });
  const created = await call<{ endpoint: { id: string } }>("POST", `/api/partners/providers/${code}/webhooks/endpoints`, {
    token: partner.token,
    body: { endpoint: { name: "Platform", destination_url: url, events: ["prospect.ready"] } },
  });
  expect(created.status).toBe(201);
  const [provider] = await (await getDb()).select().from(providers).where(eq(providers.code, code));
  return { endpoint: created.body.endpoint.id, secret: decryptSecret(provider.signingSecretEncrypted) };
}

describe("provider subscriptions (spec Delivery mechanics 6)", () => {
  it("deliver only the events of the owners they cover, signed with the subscription's own secret", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const other = await newOwner(partner.client);
    const { endpoint, secret } = await providerEndpoint(partner, hook.url, [partner.owner.slug]);
    await emit(partner.owner, "covered");
    await emit(other, "not-covered");
    const rows = await deliveriesOf(endpoint);
    expect(rows).toHaveLength(1);
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(JSON.parse(request.rawBody)).toMatchObject({ event: "prospect.ready", property_owner_slug: partner.owner.slug });
    expect(verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], request.rawBody, secret)).toBe(true);
    expect(
      verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], request.rawBody, (await partner.secrets()).current),
    ).toBe(false);
  });

  it("without listed owners, cover every owner granted to the subscription's client", async () => {
    const partner = await webhookPartner();
    const hook = await receiver();
    const { endpoint } = await providerEndpoint(partner, hook.url);
    const stranger = await webhookPartner();
    await emit(partner.owner, "granted");
    await emit(stranger.owner, "not-granted");
    expect(await deliveriesOf(endpoint)).toHaveLength(1);
    await grant(partner.client, stranger.owner.id);
    await emit(stranger.owner, "granted-later");
    expect(await deliveriesOf(endpoint)).toHaveLength(2);
  });
});
