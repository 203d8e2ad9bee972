import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { queuedJobs } from "../../test/jobs";
import { reevaluateTask } from "../prospects/prospect__reevaluate";
import { lockAddressForPolicy } from "./address-lock";
import { building, onboardingPartner } from "./roster-test-helpers";

/** Every stored row of the owner's roster with its row version (xmin changes with any UPDATE). */
async function rosterState(ownerId: number) {
  const db = await getDb();
  const [buildings, unitRows, history, disagreements] = await Promise.all([
    db.execute(sql`select id, xmin::text as version, updated_at from properties where owner_id = ${ownerId} order by id`),
    db.execute(
      sql`select u.id, u.xmin::text as version, u.updated_at from units u join properties p on p.id = u.property_id where p.owner_id = ${ownerId} order by u.id`,
    ),
    db.execute(sql`select count(*)::int as n from address_history h join properties p on p.id = h.property_id where p.owner_id = ${ownerId}`),
    db.execute(sql`select count(*)::int as n from address_disagreements d join properties p on p.id = d.property_id where p.owner_id = ${ownerId}`),
  ]);
  return { buildings, units: unitRows, history: history[0].n, disagreements: disagreements[0].n };
}

// Sent as partners send them: a state spelled out, a ZIP+4, address keys in the partner's order.
const propertyItems = [
  {
    external_system_id: "p1",
    building_name: "Congress Tower",
    address: { line_one: "100 Congress Ave Apt 1", city: "Austin", state: "Texas", zip: "78701-1234" },
    default_coverage: { type: "multiplier", value: 1.5 },
    pms_type: "pms_one",
    pms_property_id: "PP-1",
  },
  { external_system_id: "p2", building_name: "Elm Court", address: { zip: "78702", state: "TX", city: "Austin", line_one: "9 Elm St" }, type: "multifamily" },
];
const unitItems = [
  {
    external_system_id: "u1",
    property_external_id: "p1",
    address: { line_one: "100 Congress Avenue # 1", city: "Austin", state: "TX", zip: "78701" },
    default_coverage: { type: "multiplier", value: 2 },
  },
  { external_system_id: "u2", property_external_id: "p1", address: { zip: "78701", line_one: "100 Congress Ave Apt 2", city: "Austin", state: "TX" } },
  { external_system_id: "u3", property_external_id: "p2", name: "4B", pms_unit_id: "PU-3" },
];

describe("an unchanged re-send of a roster batch (docs/decisions.md, Roster batch speed)", () => {
  it("answers updated and writes nothing: no row version changes, no history, no re-evaluation", async () => {
    const { post, owner } = await onboardingPartner();
    expect((await post("properties", propertyItems)).body.meta).toEqual({ created: 2, updated: 0, failed: 0 });
    expect((await post("units", unitItems)).body.meta).toEqual({ created: 3, updated: 0, failed: 0 });
    const before = await rosterState(owner.id);
    const jobsBefore = (await queuedJobs(reevaluateTask.name)).length;

    const properties = await post("properties", propertyItems);
    const units = await post("units", unitItems);
    expect(properties.body.results).toEqual([
      { external_system_id: "p1", action: "updated" },
      { external_system_id: "p2", action: "updated" },
    ]);
    expect(units.body.meta).toEqual({ created: 0, updated: 3, failed: 0 });
    expect(await rosterState(owner.id)).toEqual(before);
    expect(await queuedJobs(reevaluateTask.name)).toHaveLength(jobsBefore);
  });

  it("writes the one item that changes something, and only it", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", propertyItems);
    await post("units", unitItems);
    const before = await rosterState(owner.id);
    const jobsBefore = (await queuedJobs(reevaluateTask.name)).length;

    await post("units", [unitItems[0], { ...unitItems[1], default_coverage: { type: "multiplier", value: 3 } }, unitItems[2]]);
    await post("properties", [propertyItems[0], { ...propertyItems[1], active: false }]);
    const after = await rosterState(owner.id);
    expect(after.units.map((row) => row.version !== before.units[after.units.indexOf(row)].version)).toEqual([false, true, false]);
    expect(after.buildings.map((row) => row.version !== before.buildings[after.buildings.indexOf(row)].version)).toEqual([false, true]);
    expect(after.history).toBe(before.history);
    // One job for the changed unit's building, one for the changed building.
    expect(await queuedJobs(reevaluateTask.name)).toHaveLength(jobsBefore + 2);
  });
});

describe("the address the partner last sent, sent again (spec Property rules, Address derivation)", () => {
  it("does not undo the street the units derived; a new address is applied", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", propertyItems);
    await post("units", unitItems);
    const stored = async () =>
      (
        await (
          await getDb()
        ).execute<{ line: string }>(sql`select address_line_one as line from properties where owner_id = ${owner.id} and external_system_id = 'p1'`)
      )[0].line;
    expect(await stored()).toBe("100 Congress Avenue");
    await post("properties", [propertyItems[0]]);
    expect(await stored()).toBe("100 Congress Avenue");
    await post("properties", [{ ...propertyItems[0], address: { ...propertyItems[0].address, line_one: "102 Congress Ave" } }]);
    expect(await stored()).toBe("102 Congress Ave");
  });
});

describe("an unchanged re-send on a locked address (spec Property rules, Address derivation)", () => {
  it("records each disagreement once; a different proposal is recorded again", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", propertyItems);
    await post("units", unitItems);
    await lockAddressForPolicy(await getDb(), (await building(owner.id, "p1")).id);
    const disagreeing = [1, 2].map((n) => ({ ...unitItems[n - 1], address: { ...unitItems[0].address, line_one: `77 Other St Apt ${n}` } }));
    const refresh = [{ ...propertyItems[0], address: { ...propertyItems[0].address, line_one: "9 Elm St" } }];
    for (let i = 0; i < 2; i++) {
      expect((await post("units", disagreeing)).body.meta).toEqual({ created: 0, updated: 2, failed: 0 });
      expect((await post("properties", refresh)).body.meta).toEqual({ created: 0, updated: 1, failed: 0 });
    }
    const recorded = async () =>
      (
        await (
          await getDb()
        ).execute<{ source: string; line: string }>(
          sql`select d.source, d.proposed_line_one as line from address_disagreements d join properties p on p.id = d.property_id where p.owner_id = ${owner.id} order by d.id`,
        )
      ).map((row) => [row.source, row.line]);
    expect(await recorded()).toEqual([
      ["derivation", "77 Other Street"],
      ["partner_update", "9 Elm St"],
    ]);
    await post("properties", [{ ...propertyItems[0], address: { ...propertyItems[0].address, line_one: "11 Elm St" } }]);
    expect((await recorded()).at(-1)).toEqual(["partner_update", "11 Elm St"]);
  });
});
