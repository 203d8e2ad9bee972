import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { newClient, unique } from "../../../test/factories";
import { prospects } from "../../prospects/prospects.table";
import { webhookDeliveries, webhookEvents } from "../../webhooks/webhooks.table";
import { createManagedOwner } from "../service";
import { partnerOn } from "../shared-owner-test-helpers";
import { mergeOwners } from "./merge";
import { loadedOwner, partnerCalls } from "./merge-test-helpers";

async function prospectRow(source: string, id: string) {
  const [row] = await (await getDb())
    .select()
    .from(prospects)
    .where(and(eq(prospects.source, source), eq(prospects.sourceProspectId, id)));
  return row;
}

/** The endpoints that got a delivery of an event about this prospect (its payload `id` is the source_prospect_id). */
async function endpointsNotifiedOf(sourceProspectId: string) {
  const rows = await (await getDb())
    .select({ endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(like(webhookEvents.body, `%"id":"${sourceProspectId}"%`));
  return rows.map((row) => row.endpointId).sort();
}

describe("owner merge into a managed owner: access to what moved (decisions §12 Owners)", () => {
  it("the duplicate's partner reaches the moved buildings under both slugs, and nothing else of the survivor; each endpoint gets only its client's records", async () => {
    const db = await getDb();
    const survivor = await createManagedOwner(db, { name: unique("Managed"), externalOrgId: unique("org") });
    const q = await partnerOn(survivor, `Q${unique("x").slice(2)}`);
    const qEndpoint = await q.register("https://localhost:9/q", ["prospect.created"]);
    const p = await newClient();
    const duplicate = await loadedOwner(p, "dup", ["p-before"]);
    expect(await endpointsNotifiedOf("p-before")).toEqual([duplicate.endpointId]);

    await mergeOwners(db, { cli: "test" }, { from: duplicate.owner.slug, into: survivor.slug });

    // P, under the survivor's slug and under the old one, resolves the building that moved.
    for (const [slug, id] of [
      [survivor.slug, "p-new"],
      [duplicate.owner.slug, "p-old-slug"],
    ]) {
      expect((await partnerCalls(duplicate.token, slug, duplicate.source).prospect(id, "b1", "u1")).status).toBe(200);
      const row = await prospectRow(duplicate.source, id);
      expect(row.ownerId).toBe(survivor.id);
      expect(row.propertyId).not.toBeNull();
      expect(row.unitId).not.toBeNull();
    }
    // ...but not Q's building, which P was never granted: it behaves as unknown.
    expect((await partnerCalls(duplicate.token, survivor.slug, duplicate.source).prospect("p-foreign", q.building, q.unit)).status).toBe(200);
    expect((await prospectRow(duplicate.source, "p-foreign")).propertyId).toBeNull();
    // Q still reaches its own building, not the moved ones.
    expect((await q.postProspect(q.prospect("q-own"))).status).toBe(200);
    expect((await prospectRow(q.source, "q-own")).propertyId).not.toBeNull();
    expect((await q.postProspect(q.prospect("q-moved", { property: { external_system_id: "b1" }, unit: { external_system_id: "u1" } }))).status).toBe(200);
    expect((await prospectRow(q.source, "q-moved")).propertyId).toBeNull();

    // The moved endpoint receives P's records only; Q's endpoint Q's only.
    expect(await endpointsNotifiedOf("p-new")).toEqual([duplicate.endpointId]);
    expect(await endpointsNotifiedOf("p-old-slug")).toEqual([duplicate.endpointId]);
    expect(await endpointsNotifiedOf("q-own")).toEqual([qEndpoint]);
  });
});
