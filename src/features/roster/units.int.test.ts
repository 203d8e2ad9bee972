import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { coverageOf } from "./effective";
import { ROSTER_MESSAGES } from "./messages";
import { addressDisagreements, properties, units } from "./roster.table";
import { address, onboardingPartner } from "./roster-test-helpers";

async function unitsOf(ownerId: number, propertyExternalId: string) {
  const db = await getDb();
  const [property] = await db
    .select()
    .from(properties)
    .where(and(eq(properties.ownerId, ownerId), eq(properties.externalSystemId, propertyExternalId)));
  const rows = await db.select().from(units).where(eq(units.propertyId, property.id)).orderBy(units.id);
  return { property, units: rows };
}

const unit = (id: string, property: string, extra: Record<string, unknown> = {}) => ({ external_system_id: id, property_external_id: property, ...extra });

describe("POST /partners/{owner_slug}/units (spec Unit rules)", () => {
  it("creates units with explicit names and fails an unknown property", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "b", building_name: "B", address: address("1 B St") }]);
    const answer = await post("units", [unit("u1", "b", { name: "101" }), unit("u2", "nope", { name: "1" })]);
    expect(answer.body.results).toEqual([
      { external_system_id: "u1", action: "created" },
      { external_system_id: "u2", action: "failed", errors: { property_external_id: [ROSTER_MESSAGES.unknownProperty] } },
    ]);
    expect((await unitsOf(owner.id, "b")).units.map((u) => u.name)).toEqual(["101"]);
  });

  it("derives the building street and the unit names from a whole building sent at once", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "main", building_name: "Main", address: address("123 main st apt 1") }]);
    const answer = await post("units", [
      unit("u1", "main", { address: address("123 Main St Apt 1") }),
      unit("u2", "main", { address: address("123 Main Street #2") }),
      unit("u3", "main", { address: address("123 MAIN ST UNIT 3") }),
    ]);
    expect(answer.body.meta).toEqual({ created: 3, updated: 0, failed: 0 });
    const { property, units: rows } = await unitsOf(owner.id, "main");
    expect(property.addressLineOne).toBe("123 Main Street");
    expect(rows.map((u) => u.name)).toEqual(["1", "2", "3"]);
    expect(rows[1].address).toEqual(address("123 Main Street #2"));
  });

  it("derives names from the street remainder, line_two, pms_unit_id, and 1 on a single-unit building", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [
      { external_system_id: "elm", building_name: "Elm", address: address("9 Elm St") },
      { external_system_id: "house", building_name: "House", address: address("8 Birch Ln"), type: "single_family" },
    ]);
    const answer = await post("units", [
      unit("a", "elm", { address: address("9 Elm St 4B") }),
      unit("b", "elm", { address: address("9 Elm Street Cottage 3") }),
      unit("c", "elm", { address: { ...address("9 Elm St"), line_two: "Apt 7" } }),
      unit("d", "elm", { address: address("9 Elm St"), pms_unit_id: "0113" }),
      unit("e", "elm", { address: address("9 Elm St") }),
      unit("h", "house", { address: address("8 Birch Ln") }),
    ]);
    expect(answer.body.results.map((r) => [r.external_system_id, r.action, r.errors])).toEqual([
      ["a", "created", undefined],
      ["b", "created", undefined],
      ["c", "created", undefined],
      ["d", "created", undefined],
      ["e", "failed", { name: [ROSTER_MESSAGES.unitNameNotDerivable] }],
      ["h", "created", undefined],
    ]);
    expect((await unitsOf(owner.id, "elm")).units.map((u) => u.name)).toEqual(["4B", "Cottage 3", "7", "0113"]);
    expect((await unitsOf(owner.id, "house")).units.map((u) => u.name)).toEqual(["1"]);
  });

  it("matches by linked id, then pms_unit_id, then name ignoring case; a unit linked elsewhere fails", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "b", building_name: "B", address: address("1 B St") }]);
    const { property } = await unitsOf(owner.id, "b");
    const db = await getDb();
    await db.insert(units).values([
      { propertyId: property.id, name: "0113", nameKey: "0113", pmsUnitId: "113" },
      { propertyId: property.id, name: "PH-A", nameKey: "ph-a" },
    ]);
    const answer = await post("units", [
      unit("by-pms", "b", { name: "113", pms_unit_id: "113" }),
      unit("by-name", "b", { name: "ph-a" }),
      unit("linked", "b", { name: "201" }),
    ]);
    expect(answer.body.results.map((r) => r.action)).toEqual(["updated", "updated", "created"]);
    const again = await post("units", [
      unit("linked", "b", { name: "202" }),
      unit("thief", "b", { name: "202" }),
      unit("thief2", "b", { pms_unit_id: "113", name: "9" }),
    ]);
    expect(again.body.results).toEqual([
      { external_system_id: "linked", action: "updated" },
      { external_system_id: "thief", action: "failed", errors: { external_system_id: [ROSTER_MESSAGES.unitLinkedElsewhere] } },
      { external_system_id: "thief2", action: "failed", errors: { external_system_id: [ROSTER_MESSAGES.unitLinkedElsewhere] } },
    ]);
    const rows = (await unitsOf(owner.id, "b")).units;
    expect(rows.map((u) => [u.externalSystemId, u.name])).toEqual([
      ["by-pms", "113"],
      ["by-name", "ph-a"],
      ["linked", "202"],
    ]);
  });

  it("holds exactly one unit on single_family and garden_community buildings", async () => {
    const { post } = await onboardingPartner();
    await post("properties", [
      { external_system_id: "sf", building_name: "SF", address: address("1 SF Ln"), type: "single_family" },
      { external_system_id: "gc", building_name: "GC", address: address("2 GC Ln"), type: "garden_community" },
    ]);
    const answer = await post("units", [
      unit("1", "sf", { name: "A" }),
      unit("2", "sf", { name: "B" }),
      unit("3", "gc", { name: "A" }),
      unit("4", "gc", { name: "B" }),
    ]);
    expect(answer.body.results.map((r) => r.errors)).toEqual([
      undefined,
      { property_external_id: [ROSTER_MESSAGES.singleUnitBuilding("single_family")] },
      undefined,
      { property_external_id: [ROSTER_MESSAGES.singleUnitBuilding("garden_community")] },
    ]);
    // Turning a building with two units into a single-unit kind fails the property item.
    await post("properties", [{ external_system_id: "mf", building_name: "MF", address: address("3 MF Ln") }]);
    await post("units", [unit("x", "mf", { name: "1" }), unit("y", "mf", { name: "2" })]);
    const retype = await post("properties", [{ external_system_id: "mf", type: "single_family" }]);
    expect(retype.body.results[0].errors).toEqual({ type: [ROSTER_MESSAGES.typeHoldsOneUnit("single_family", 2)] });
  });

  it("inherits default_coverage from the property when absent", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [
      { external_system_id: "b", building_name: "B", address: address("1 B St"), default_coverage: { type: "multiplier", value: 1.5 } },
    ]);
    await post("units", [unit("own", "b", { name: "1", default_coverage: { type: "multiplier", value: 2 } }), unit("inherits", "b", { name: "2" })]);
    const { property, units: rows } = await unitsOf(owner.id, "b");
    expect(rows.map((u) => coverageOf(property, u).value)).toEqual([2, 1.5]);
  });

  it("stops deriving once the address is locked, logging the disagreement instead", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "b", building_name: "B", address: address("1 Corrected Ave") }]);
    await (await getDb())
      .update(properties)
      .set({ addressLockedAt: new Date(), addressLockedReason: "staff_correction" })
      .where(and(eq(properties.ownerId, owner.id), eq(properties.externalSystemId, "b")));
    await post("units", [unit("u", "b", { address: address("77 Other St Apt 5") })]);
    const { property, units: rows } = await unitsOf(owner.id, "b");
    expect(property.addressLineOne).toBe("1 Corrected Ave");
    expect(rows.map((u) => u.name)).toEqual(["5"]);
    const logged = await (await getDb()).select().from(addressDisagreements).where(eq(addressDisagreements.propertyId, property.id));
    expect(logged.map((d) => [d.source, d.storedLineOne, d.proposedLineOne])).toEqual([["derivation", "1 Corrected Ave", "77 Other Street"]]);
  });

  it("creates each unit once when two identical batches arrive at the same time", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "b", building_name: "B", address: address("1 B St") }]);
    const batch = Array.from({ length: 30 }, (_, i) => unit(`u${i}`, "b", { address: address(`1 B St Apt ${i + 1}`) }));
    const answers = await Promise.all([post("units", batch), post("units", batch)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.meta.created).sort()).toEqual([0, 30]);
    expect((await unitsOf(owner.id, "b")).units).toHaveLength(30);
  });
});
