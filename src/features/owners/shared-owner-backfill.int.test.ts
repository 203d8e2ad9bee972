import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { newClient, newOwner, unique } from "../../test/factories";
import { call } from "../../test/http";
import { moveOuts } from "../move-outs/move-outs.table";
import { createProvider } from "../webhooks/providers";
import { providers } from "../webhooks/providers.table";
import { webhookEndpoints } from "../webhooks/webhooks.table";
import { managedOwnerWithTwoPartners, moveOutBody } from "./shared-owner-test-helpers";

/** The data statements of migration 0007, run again over rows made as before it (no client recorded). */
async function runBackfill() {
  const statements = fs
    .readFileSync(new URL("../../../drizzle/0007_client_ownership.sql", import.meta.url), "utf8")
    .split("--> statement-breakpoint")
    .filter((statement) => /^\s*(--.*\n\s*)*(update|with)\b/i.test(statement));
  expect(statements).toHaveLength(3);
  const db = await getDb();
  for (const statement of statements) await db.execute(sql.raw(statement));
}

const endpointRow = (fields: { ownerId?: number; providerId?: number }) => ({
  id: `we_${unique("old").slice(4)}`,
  ...fields,
  name: "from before",
  destinationUrl: "https://hooks.example.com/old",
  events: ["prospect.created"],
});

describe("migration 0007: records made before clients were recorded", () => {
  it("are given the owner's only client, or the provider's, and stay unreachable where several clients share the owner", async () => {
    const db = await getDb();
    const sole = await newClient();
    const soleOwner = await newOwner(sole);
    const code = unique("prov");
    await createProvider(db, { code, clientId: sole.clientId });
    const [provider] = await db.select().from(providers).where(eq(providers.code, code));
    const shared = await managedOwnerWithTwoPartners();

    const soleEndpoint = endpointRow({ ownerId: soleOwner.id });
    const providerEndpoint = endpointRow({ providerId: provider.id });
    const sharedEndpoint = endpointRow({ ownerId: shared.owner.id });
    await db.insert(webhookEndpoints).values([soleEndpoint, providerEndpoint, sharedEndpoint]);
    const move = (ownerId: number) => {
      const body = moveOutBody();
      return { ownerId, externalId: body.external_id, moveOutDate: body.move_out_date, property: body.property, residents: body.residents };
    };
    const [soleMoveOut, sharedMoveOut] = await db
      .insert(moveOuts)
      .values([move(soleOwner.id), move(shared.owner.id)])
      .returning();

    await runBackfill();

    const clientOf = async (id: string) => (await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0].clientId;
    expect(await clientOf(soleEndpoint.id)).toBe(sole.clientId);
    expect(await clientOf(providerEndpoint.id)).toBe(sole.clientId);
    expect(await clientOf(sharedEndpoint.id)).toBeNull();
    const moveOutClient = async (id: number) => (await db.select().from(moveOuts).where(eq(moveOuts.id, id)))[0].clientId;
    expect(await moveOutClient(soleMoveOut.id)).toBe(sole.clientId);
    expect(await moveOutClient(sharedMoveOut.id)).toBeNull();

    const token = await sole.token();
    const listed = await call<{ endpoints: Array<{ id: string }> }>("GET", `/api/partners/${soleOwner.slug}/webhooks/endpoints`, { token });
    expect(listed.body.endpoints.map((endpoint) => endpoint.id)).toEqual([soleEndpoint.id]);
    expect((await call("GET", `/api/partners/${soleOwner.slug}/move_outs/${soleMoveOut.id}`, { token })).status).toBe(200);
    for (const partner of [shared.a, shared.b]) {
      expect((await partner.endpoints()).body.endpoints).toEqual([]);
      expect((await partner.getMoveOut(sharedMoveOut.id)).status).toBe(404);
    }
  });
});
