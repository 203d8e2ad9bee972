import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { ROSTER_MESSAGES } from "./messages";
import { units } from "./roster.table";
import { address, building, onboardingPartner } from "./roster-test-helpers";

const unit = (id: string, property: string, extra: Record<string, unknown> = {}) => ({ external_system_id: id, property_external_id: property, ...extra });

async function unitRow(ownerId: number, propertyExternalId: string, externalId: string) {
  const property = await building(ownerId, propertyExternalId);
  const [row] = await (await getDb())
    .select()
    .from(units)
    .where(and(eq(units.propertyId, property.id), eq(units.externalSystemId, externalId)));
  return row;
}

const unitsOf = async (ownerId: number, propertyExternalId: string) =>
  (await getDb())
    .select()
    .from(units)
    .where(eq(units.propertyId, (await building(ownerId, propertyExternalId)).id))
    .orderBy(units.id);

/**
 * spec Common rules 5-6, Property rules (Address derivation): a failed unit leaves no row behind and
 * its address does not derive the building street; the valid item sent again is `created`.
 */
describe("a failed unit item writes nothing and derives nothing", () => {
  it("unknown property_external_id: no unit anywhere", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "b", building_name: "B", address: address("1 B St") }]);
    const answer = await post("units", [unit("u", "nope", { name: "1", address: address("1 B Street Apt 1") })]);
    expect(answer.body.results[0].errors).toEqual({ property_external_id: [ROSTER_MESSAGES.unknownProperty] });
    expect(await unitsOf(owner.id, "b")).toEqual([]);
    expect((await post("units", [unit("u", "b", { name: "1" })])).body.results[0]).toEqual({ external_system_id: "u", action: "created" });
  });

  it("a unit already linked to a different identifier: the building street is not derived from the failed unit", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "oak", building_name: "Oak", address: address("5 Oak St") }]);
    await post("units", [unit("old", "oak", { name: "101" })]);
    const before = await unitRow(owner.id, "oak", "old");
    const answer = await post("units", [unit("thief", "oak", { name: "101", address: address("5 Oak Street Apt 101") })]);
    expect(answer.body.results[0].errors).toEqual({ external_system_id: [ROSTER_MESSAGES.unitLinkedElsewhere] });
    expect((await building(owner.id, "oak")).addressLineOne).toBe("5 Oak St");
    expect(await unitRow(owner.id, "oak", "old")).toEqual(before);
    expect(await unitRow(owner.id, "oak", "thief")).toBeUndefined();
    const resent = await post("units", [unit("thief", "oak", { name: "102" })]);
    expect(resent.body.results[0]).toEqual({ external_system_id: "thief", action: "created" });
  });

  it("a second unit on a one-unit building type: no row, no derived street", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "house", building_name: "House", address: address("8 Birch Ln"), type: "single_family" }]);
    await post("units", [unit("first", "house", { name: "A" })]);
    const answer = await post("units", [unit("second", "house", { name: "B", address: address("8 Birch Lane Unit B") })]);
    expect(answer.body.results[0].errors).toEqual({ property_external_id: [ROSTER_MESSAGES.singleUnitBuilding("single_family")] });
    expect((await building(owner.id, "house")).addressLineOne).toBe("8 Birch Ln");
    expect((await unitsOf(owner.id, "house")).map((row) => row.externalSystemId)).toEqual(["first"]);
  });

  it("an underivable unit name: no row, no derived street", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "elm", building_name: "Elm", address: address("9 Elm St") }]);
    const answer = await post("units", [unit("e", "elm", { address: address("9 Elm Street") })]);
    expect(answer.body.results[0].errors).toEqual({ name: [ROSTER_MESSAGES.unitNameNotDerivable] });
    expect((await building(owner.id, "elm")).addressLineOne).toBe("9 Elm St");
    expect(await unitsOf(owner.id, "elm")).toEqual([]);
    const resent = await post("units", [unit("e", "elm", { name: "E", address: address("9 Elm Street") })]);
    expect(resent.body.results[0]).toEqual({ external_system_id: "e", action: "created" });
  });

  it("the street is derived from the units that succeed only, and later items see that street", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "ash", building_name: "Ash", address: address("30 Ash St") }]);
    await post("units", [unit("taken", "ash", { name: "1" })]);
    const answer = await post("units", [
      // Fails (name 1 is linked to "taken"); with its address the units would share no street.
      unit("stray", "ash", { name: "1", address: address("31 Ash Street Apt 1") }),
      unit("two", "ash", { address: address("30 Ash St Apt 2") }),
      unit("three", "ash", { address: address("30 ASH STREET #3") }),
    ]);
    expect(answer.body.results.map((result) => [result.external_system_id, result.action])).toEqual([
      ["stray", "failed"],
      ["two", "created"],
      ["three", "created"],
    ]);
    expect((await building(owner.id, "ash")).addressLineOne).toBe("30 Ash Street");
    expect((await unitsOf(owner.id, "ash")).map((row) => [row.externalSystemId, row.name])).toEqual([
      ["taken", "1"],
      ["two", "2"],
      ["three", "3"],
    ]);
  });

  it("an earlier unit's derived name does not suffer from a later failed unit's address", async () => {
    const { post, owner } = await onboardingPartner();
    // The leasing office's address: only the units' addresses tell the building street.
    await post("properties", [{ external_system_id: "plaza", building_name: "Plaza", address: address("100 Plaza Way") }]);
    await post("units", [unit("old", "plaza", { name: "101" })]);
    const answer = await post("units", [
      unit("a", "plaza", { address: address("1 Main St 4B") }),
      unit("b", "plaza", { name: "101", address: address("2 Main St Apt 5") }),
    ]);
    expect(answer.body.results).toEqual([
      { external_system_id: "a", action: "created" },
      { external_system_id: "b", action: "failed", errors: { external_system_id: [ROSTER_MESSAGES.unitLinkedElsewhere] } },
    ]);
    expect((await building(owner.id, "plaza")).addressLineOne).toBe("1 Main Street");
    expect((await unitRow(owner.id, "plaza", "a")).name).toBe("4B");
  });

  it("a failed update (a rename onto another unit's name) changes nothing of the stored unit and derives nothing", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "b", building_name: "B", address: address("1 Birch St") }]);
    await post("units", [unit("u1", "b", { name: "101", pms_unit_id: "P1" }), unit("u2", "b", { name: "102" })]);
    const before = await unitRow(owner.id, "b", "u1");
    const answer = await post("units", [
      unit("u1", "b", { name: "102", pms_unit_id: "P9", address: address("1 Birch Street Apt 102") }),
      unit("u1", "b", { default_coverage: { type: "multiplier", value: 2 } }),
    ]);
    expect(answer.body.results.map((result) => result.action)).toEqual(["failed", "updated"]);
    expect(await unitRow(owner.id, "b", "u1")).toEqual({ ...before, defaultCoverage: { type: "multiplier", value: 2 }, updatedAt: expect.any(Date) });
    expect((await building(owner.id, "b")).addressLineOne).toBe("1 Birch St");
  });

  it("item validation failures: no row, no derived street", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "b", building_name: "B", address: address("4 Fir St") }]);
    const answer = await post("units", [
      unit("blank-name", "b", { name: " ", address: address("4 Fir Street Apt 1") }),
      unit("extra", "b", { name: "2", address: address("4 Fir Street Apt 2"), color: "red" }),
    ]);
    expect(answer.body.meta).toEqual({ created: 0, updated: 0, failed: 2 });
    expect(await unitsOf(owner.id, "b")).toEqual([]);
    expect((await building(owner.id, "b")).addressLineOne).toBe("4 Fir St");
  });
});
