import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import { lockAddressForPolicy } from "../address-lock";
import { address, building, onboardingPartner } from "../roster-test-helpers";

/**
 * spec Property rules, Address derivation; decisions §12: once the address is locked (staff
 * correction or a policy), an address arriving later from a unit load or a property refresh is
 * recorded as a disagreement and not applied, and the item still answers `updated`. Through the
 * real Partner API handler.
 */

const unit = (id: string, property: string, extra: Record<string, unknown> = {}) => ({ external_system_id: id, property_external_id: property, ...extra });

async function operator() {
  return consoleRouter.createCaller({ db: await getDb(), log: logger(), requestId: "t", user: { id: 1, email: "ops@example.com", role: "operator" } });
}

async function buildingWithUnit() {
  const partner = await onboardingPartner();
  await partner.post("properties", [{ external_system_id: "b", building_name: "Oak", address: address("5 Oak Ave") }]);
  await partner.post("units", [unit("u1", "b", { address: address("5 Oak Ave Apt 1") })]);
  return { ...partner, id: (await building(partner.owner.id, "b")).id };
}

const locks = {
  "a staff correction": async (id: number) => {
    await (await operator()).buildings.correctAddress({ id, address: { line_one: "5 Oak Avenue North", city: "Austin", state: "TX", zip: "78701" } });
  },
  "a policy": async (id: number) => lockAddressForPolicy(await getDb(), id),
};

describe.each(Object.entries(locks))("an address locked by %s", (reason, lock) => {
  it("records a disagreeing unit load and property refresh, applies neither, and answers updated", async () => {
    const { post, owner, id } = await buildingWithUnit();
    await lock(id);
    const stored = await building(owner.id, "b");
    const units = await post("units", [unit("u1", "b", { address: address("77 Other St Apt 1") })]);
    expect(units.status).toBe(200);
    expect(units.body.results).toEqual([{ external_system_id: "u1", action: "updated" }]);
    const refresh = await post("properties", [
      { external_system_id: "b", building_name: "Oak", address: { line_one: "9 Elm St", city: "Dallas", state: "Texas", zip: "75201-0001" } },
    ]);
    expect(refresh.body.results).toEqual([{ external_system_id: "b", action: "updated" }]);
    const after = await building(owner.id, "b");
    expect([after.addressLineOne, after.city, after.state, after.zip]).toEqual([stored.addressLineOne, stored.city, stored.state, stored.zip]);
    const detail = await (await operator()).buildings.detail({ id });
    expect(detail.address_locked_reason).toBe(reason === "a policy" ? "policy_issued" : "staff_correction");
    expect(detail.disagreements).toEqual([
      {
        source: "properties",
        received: { line_one: "9 Elm St", city: "Dallas", state: "TX", zip: "75201" },
        stored_line_one: stored.addressLineOne,
        recorded_at: expect.any(String),
      },
      {
        source: "units",
        received: { line_one: "77 Other Street", city: "Austin", state: "TX", zip: "78701" },
        stored_line_one: stored.addressLineOne,
        recorded_at: expect.any(String),
      },
    ]);
    expect(detail.history[0].source).toBe(reason === "a policy" ? "policy_lock" : "staff_correction");
  });

  it("records a refresh that changes only the city, and nothing for a refresh that agrees", async () => {
    const { post, owner, id } = await buildingWithUnit();
    await lock(id);
    const stored = await building(owner.id, "b");
    const same = { line_one: stored.addressLineOne, city: stored.city, state: stored.state, zip: stored.zip };
    await post("properties", [{ external_system_id: "b", address: same }]);
    await post("properties", [{ external_system_id: "b", address: { ...same, city: "Round Rock" } }]);
    expect((await building(owner.id, "b")).city).toBe("Austin");
    const detail = await (await operator()).buildings.detail({ id });
    expect(detail.disagreements.map((d) => d.received.city)).toEqual(["Round Rock"]);
  });
});

describe("before any lock", () => {
  it("applies a property refresh and a derivation, each written to the history with its source", async () => {
    const { post, owner, id } = await buildingWithUnit();
    await post("properties", [{ external_system_id: "b", address: { line_one: "5 Oak Ave", city: "Austin", state: "TX", zip: "78702" } }]);
    expect((await building(owner.id, "b")).zip).toBe("78702");
    const detail = await (await operator()).buildings.detail({ id });
    expect(detail.history.map((h) => [h.source, h.address.line_one, h.address.zip])).toEqual([
      ["properties", "5 Oak Ave", "78702"],
      ["units", "5 Oak Avenue", "78701"],
      ["properties", "5 Oak Ave", "78701"],
    ]);
    expect(detail.disagreements).toEqual([]);
  });
});
