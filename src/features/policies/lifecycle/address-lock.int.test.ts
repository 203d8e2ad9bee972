import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { call } from "../../../test/http";
import { buildingForConsole } from "../../roster/console/buildings";
import { addressDisagreements, properties } from "../../roster/roster.table";
import { address } from "../../roster/roster-test-helpers";
import { enrollmentPartnersOfThisFile } from "../policy-test-helpers";
import { issuedPolicy } from "./lifecycle-test-helpers";

const partner = enrollmentPartnersOfThisFile();

async function building(ownerId: number, externalId: string) {
  const [row] = await (await getDb())
    .select()
    .from(properties)
    .where(and(eq(properties.ownerId, ownerId), eq(properties.externalSystemId, externalId)));
  return row;
}

const stored = (row: typeof properties.$inferSelect) => [row.addressLineOne, row.city, row.state, row.zip];

describe("address lock by the first policy (spec Property rules, Address derivation; decisions §11)", () => {
  it("keeps the building's address once a policy exists: later unit loads and property updates are recorded and shown, not applied", async () => {
    const p = await partner();
    const post = (path: string, body: unknown) => call<{ results: Record<string, unknown>[] }>("POST", `${p.base}/${path}`, { token: p.token, body });
    // A second building of the same owner without a policy: the control.
    await post("properties", [{ external_system_id: "b2", building_name: "Building Two", address: address("20 Oak St") }]);

    const policy = await issuedPolicy(p, "lock-1");
    const before = await building(p.owner.id, "b1");
    expect(before.id).toBe(policy.propertyId);
    expect(before).toMatchObject({ addressLockedReason: "policy_issued", addressLockedAt: expect.any(Date) });

    // A property refresh with another address: the item answers `updated`, the address stays.
    const refresh = await post("properties", [
      { external_system_id: "b1", building_name: "Building One", address: address("99 Elm St", "78702") },
      { external_system_id: "b2", building_name: "Building Two", address: address("21 Oak St") },
    ]);
    expect(refresh.status).toBe(200);
    expect(refresh.body.results.map((r) => [r.external_system_id, r.action])).toEqual([
      ["b1", "updated"],
      ["b2", "updated"],
    ]);
    expect(stored(await building(p.owner.id, "b1"))).toEqual(stored(before));
    expect((await building(p.owner.id, "b2")).addressLineOne).toBe("21 Oak St");

    // A unit load whose address derives another street for the building: the unit is written, the address is not.
    const units = await post("units", [{ external_system_id: "u1", property_external_id: "b1", name: "101", address: address("77 Other St Apt 101") }]);
    expect(units.status).toBe(200);
    expect(units.body.results.map((r) => [r.external_system_id, r.action])).toEqual([["u1", "updated"]]);
    expect(stored(await building(p.owner.id, "b1"))).toEqual(stored(before));

    // Both disagreements are recorded against the building and shown on its console page, newest first.
    const logged = await (await getDb()).select().from(addressDisagreements).where(eq(addressDisagreements.propertyId, before.id));
    expect(logged.map((d) => [d.source, d.storedLineOne])).toEqual([
      ["partner_update", before.addressLineOne],
      ["derivation", before.addressLineOne],
    ]);
    const page = await buildingForConsole(await getDb(), before.id);
    expect(page.disagreements.map((d) => [d.source, d.received.line_one, d.stored_line_one])).toEqual([
      ["units", "77 Other Street", before.addressLineOne],
      ["properties", "99 Elm St", before.addressLineOne],
    ]);
    expect(page.disagreements[1].received).toEqual({ line_one: "99 Elm St", city: "Austin", state: "TX", zip: "78702" });

    // Sending the stored address again is no disagreement.
    await post("properties", [
      { external_system_id: "b1", address: { line_one: before.addressLineOne, city: before.city, state: before.state, zip: before.zip } },
    ]);
    expect(await (await getDb()).select().from(addressDisagreements).where(eq(addressDisagreements.propertyId, before.id))).toHaveLength(2);
  });
});
