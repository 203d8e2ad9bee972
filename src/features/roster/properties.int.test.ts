import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { newClient } from "../../test/factories";
import { call } from "../../test/http";
import { grantBuilding } from "../owners/building-grants";
import { createManagedOwner } from "../owners/service";
import { coverageOf, payoutAccountIdOf, policyHolderNameOf } from "./effective";
import { ROSTER_MESSAGES } from "./messages";
import { bankAccounts, properties } from "./roster.table";
import { address, building, onboardingPartner, serviceBuilding } from "./roster-test-helpers";

describe("POST /partners/{owner_slug}/properties (spec Property rules)", () => {
  it("creates buildings with the documented defaults and normalized state and zip", async () => {
    const { post, owner } = await onboardingPartner();
    const answer = await post("properties", [
      {
        external_system_id: "p1",
        building_name: "Maple Court",
        address: { ...address("100 Maple St"), state: "Texas", zip: "78701-1234", line_two: "ignored", country: "US" },
      },
    ]);
    expect(answer.body).toEqual({ status_code: 200, results: [{ external_system_id: "p1", action: "created" }], meta: { created: 1, updated: 0, failed: 0 } });
    const row = await building(owner.id, "p1");
    expect(row).toMatchObject({ type: "multifamily", state: "TX", zip: "78701", addressLineOne: "100 Maple St", active: true, guaranteeEnabled: false });
    expect(policyHolderNameOf(row, owner)).toBe(`${owner.name}, LLC`);
    expect(coverageOf(row)).toEqual({ type: "multiplier", value: 1 });
  });

  it("updates on resend, writes only present fields, and null reverts optional fields to their defaults", async () => {
    const { post, owner } = await onboardingPartner();
    await post("bank_accounts", [
      { external_system_id: "main", display_name: "Main", routing_number: "021000021", account_number: "1234" },
      { external_system_id: "alt", display_name: "Alt", routing_number: "021000021", account_number: "5678" },
    ]);
    const first = {
      external_system_id: "p1",
      building_name: "Oak",
      address: address("1 Oak St"),
      policy_holder_name: "Oak Holdings LP",
      default_coverage: { type: "multiplier", value: 2 },
      bank_account_external_id: "alt",
    };
    expect((await post("properties", [first])).body.results[0].action).toBe("created");
    expect((await post("properties", [first])).body.results[0].action).toBe("updated");
    await post("properties", [{ external_system_id: "p1", building_name: "Oak Tower" }]);
    let row = await building(owner.id, "p1");
    expect(row).toMatchObject({ buildingName: "Oak Tower", policyHolderName: "Oak Holdings LP", defaultCoverage: { type: "multiplier", value: 2 } });
    const alt = await (await getDb())
      .select()
      .from(bankAccounts)
      .where(and(eq(bankAccounts.ownerId, owner.id), eq(bankAccounts.externalSystemId, "alt")));
    expect(await payoutAccountIdOf(await getDb(), row)).toBe(alt[0].id);
    await post("properties", [{ external_system_id: "p1", policy_holder_name: null, default_coverage: null, bank_account_external_id: null }]);
    row = await building(owner.id, "p1");
    expect(policyHolderNameOf(row, owner)).toBe(`${owner.name}, LLC`);
    expect(coverageOf(row)).toEqual({ type: "multiplier", value: 1 });
    // Back on the default account, it follows a moved default.
    await post("bank_accounts", [{ external_system_id: "alt", default: true }]);
    expect(await payoutAccountIdOf(await getDb(), row)).toBe(alt[0].id);
    const rows = await (await getDb()).select().from(properties).where(eq(properties.ownerId, owner.id));
    expect(rows).toHaveLength(1);
  });

  it("fails an item naming an unknown bank account, and the rest of the batch applies", async () => {
    const { post } = await onboardingPartner();
    const answer = await post("properties", [
      { external_system_id: "p1", building_name: "A", address: address("1 A St"), bank_account_external_id: "nope" },
      { external_system_id: "p2", building_name: "B", address: address("2 B St") },
    ]);
    expect(answer.body.results).toEqual([
      { external_system_id: "p1", action: "failed", errors: { bank_account_external_id: [ROSTER_MESSAGES.unknownBankAccount] } },
      { external_system_id: "p2", action: "created" },
    ]);
  });

  it("fails invalid items with field errors: missing name or address, bad state or zip, half a PMS pair", async () => {
    const { post } = await onboardingPartner();
    const answer = await post("properties", [
      { external_system_id: "a", address: address("1 A St") },
      { external_system_id: "b", building_name: "B" },
      { external_system_id: "c", building_name: "C", address: { ...address("3 C St"), state: "Texsa", zip: "1234" } },
      { external_system_id: "d", building_name: "D", address: address("4 D St"), pms_type: "pms_one" },
      { external_system_id: "e", building_name: "E", address: address("5 E St"), type: "castle" },
    ]);
    expect(answer.body.results.map((r) => r.errors)).toEqual([
      { building_name: ["is required"] },
      { address: ["is required"] },
      { "address.state": [ROSTER_MESSAGES.invalidState], "address.zip": [ROSTER_MESSAGES.invalidZip] },
      { pms_property_id: ["pms_type and pms_property_id are sent together"] },
      { type: [expect.any(String)] },
    ]);
    expect(answer.body.meta).toEqual({ created: 0, updated: 0, failed: 5 });
  });

  it("step 2: adopts a building by PMS pair, with building_name selecting among several", async () => {
    const { post, owner } = await onboardingPartner();
    const solo = await serviceBuilding(owner.id, { name: "Solo", line: "9 Solo Rd", pmsType: "pms_one", pmsPropertyId: "S1" });
    const west = await serviceBuilding(owner.id, { name: "Garden West", line: "10 Garden Way", pmsType: "pms_one", pmsPropertyId: "G1" });
    await serviceBuilding(owner.id, { name: "Garden East", line: "12 Garden Way", pmsType: "pms_one", pmsPropertyId: "G1" });
    const answer = await post("properties", [
      { external_system_id: "solo", building_name: "Solo Renamed", address: address("999 Elsewhere Blvd"), pms_type: "pms_one", pms_property_id: "S1" },
      { external_system_id: "west", building_name: "garden  west", address: address("10 Garden Way"), pms_type: "pms_one", pms_property_id: "G1" },
      { external_system_id: "who", address: address("11 Garden Way"), pms_type: "pms_one", pms_property_id: "G1" },
    ]);
    expect(answer.body.results).toEqual([
      { external_system_id: "solo", action: "updated" },
      { external_system_id: "west", action: "updated" },
      { external_system_id: "who", action: "failed", errors: { external_system_id: [ROSTER_MESSAGES.ambiguousBuilding] } },
    ]);
    expect((await building(owner.id, "solo")).id).toBe(solo.id);
    expect((await building(owner.id, "west")).id).toBe(west.id);
  });

  it("step 3: matches name + normalized street + zip, so an apartment designator matches a spelled-out suffix", async () => {
    const { post, owner } = await onboardingPartner();
    const stored = await serviceBuilding(owner.id, { name: "Main Lofts", line: "123 North Main Street" });
    const answer = await post("properties", [{ external_system_id: "lofts", building_name: "MAIN LOFTS", address: address("123 N. Main St Apt 4") }]);
    expect(answer.body.results[0]).toEqual({ external_system_id: "lofts", action: "updated" });
    expect((await building(owner.id, "lofts")).id).toBe(stored.id);
    // A street alone identifies nothing: another name on the same street is another building.
    const other = await post("properties", [{ external_system_id: "annex", building_name: "Main Annex", address: address("123 North Main Street") }]);
    expect(other.body.results[0].action).toBe("created");
  });

  it("fails a building already linked to a different identifier, and an ambiguous match, creating nothing", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "first", building_name: "Twin", address: address("5 Twin St") }]);
    const relinked = await post("properties", [{ external_system_id: "second", building_name: "Twin", address: address("5 Twin Street") }]);
    expect(relinked.body.results[0]).toEqual({
      external_system_id: "second",
      action: "failed",
      errors: { external_system_id: [ROSTER_MESSAGES.buildingLinkedElsewhere] },
    });
    await serviceBuilding(owner.id, { name: "Dup", line: "7 Dup St" });
    await serviceBuilding(owner.id, { name: "Dup", line: "7 Dup Street" });
    const ambiguous = await post("properties", [{ external_system_id: "dup", building_name: "Dup", address: address("7 Dup St") }]);
    expect(ambiguous.body.results[0].errors).toEqual({ external_system_id: [ROSTER_MESSAGES.ambiguousBuilding] });
    const rows = await (await getDb()).select().from(properties).where(eq(properties.ownerId, owner.id));
    expect(rows).toHaveLength(3);
  });

  it("active false takes a building off the roster, true restores it, and omission changes nothing", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [
      { external_system_id: "p", building_name: "P", address: address("1 P St") },
      { external_system_id: "q", building_name: "Q", address: address("2 Q St") },
    ]);
    await post("properties", [{ external_system_id: "p", active: false }]);
    expect((await building(owner.id, "p")).active).toBe(false);
    expect((await building(owner.id, "q")).active).toBe(true);
    await post("properties", [{ external_system_id: "p", active: true }]);
    expect((await building(owner.id, "p")).active).toBe(true);
  });

  it("enables the guarantee product on buildings this endpoint creates for a guarantor-capable owner, never on matched ones", async () => {
    const { post, owner } = await onboardingPartner({ guarantorCapable: true });
    await serviceBuilding(owner.id, { name: "Existing", line: "1 Old St" });
    await post("properties", [
      { external_system_id: "new", building_name: "New", address: address("2 New St"), default_coverage: { type: "multiplier", value: 1.5 } },
      { external_system_id: "old", building_name: "Existing", address: address("1 Old Street") },
    ]);
    expect(await building(owner.id, "new")).toMatchObject({ guaranteeEnabled: true, guaranteeCoverage: { type: "multiplier", value: 1.5 } });
    expect(await building(owner.id, "old")).toMatchObject({ guaranteeEnabled: false, guaranteeCoverage: null });
  });

  it("limits a managed owner's partner to granted buildings, identified by their PMS pair", async () => {
    const db = await getDb();
    const client = await newClient();
    const owner = await createManagedOwner(db, { name: "Direct Living", externalOrgId: `direct-${client.clientId}` });
    await grantBuilding(db, { ownerSlug: owner.slug, clientId: client.clientId, pmsType: "pms_two", pmsPropertyId: "T-1" });
    const token = await client.token();
    const answer = await call<{ results: Array<{ action: string; errors?: unknown }> }>("POST", `/api/partners/${owner.slug}/properties`, {
      token,
      body: [
        { external_system_id: "granted", building_name: "Tower", address: address("1 Tower Rd"), pms_type: "pms_two", pms_property_id: "T-1" },
        { external_system_id: "other", building_name: "Other", address: address("2 Other Rd"), pms_type: "pms_two", pms_property_id: "T-2" },
        { external_system_id: "nopair", building_name: "No Pair", address: address("3 No Rd") },
      ],
    });
    expect(answer.body.results).toEqual([
      { external_system_id: "granted", action: "created" },
      { external_system_id: "other", action: "failed", errors: { pms_property_id: [ROSTER_MESSAGES.outsideGrantedBuildings] } },
      { external_system_id: "nopair", action: "failed", errors: { pms_property_id: [ROSTER_MESSAGES.managedOwnerNeedsPmsPair] } },
    ]);
  });

  it("creates each building once when two identical batches arrive at the same time", async () => {
    const { post, owner } = await onboardingPartner();
    const batch = Array.from({ length: 40 }, (_, i) => ({
      external_system_id: `c-${i}`,
      building_name: `Concurrent ${i}`,
      address: address(`${i + 1} Race St`),
    }));
    const [a, b] = await Promise.all([post("properties", batch), post("properties", batch)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.meta, b.body.meta].sort((x, y) => x.created - y.created)).toEqual([
      { created: 0, updated: 40, failed: 0 },
      { created: 40, updated: 0, failed: 0 },
    ]);
    expect(await (await getDb()).select().from(properties).where(eq(properties.ownerId, owner.id))).toHaveLength(40);
  });

  it("requires the onboarding:write scope and answers 404 for an unknown owner", async () => {
    const reader = await newClient({ scopes: ["prospects:read"] });
    const { owner } = await onboardingPartner();
    const forbidden = await call("POST", `/api/partners/${owner.slug}/properties`, { token: await reader.token(), body: [] });
    expect(forbidden).toMatchObject({ status: 403, body: { message: "Forbidden" } });
    const { token } = await onboardingPartner();
    const missing = await call("POST", "/api/partners/no-such-owner/properties", { token, body: [] });
    expect(missing).toMatchObject({ status: 404, body: { status_code: 404, error: "Property owner not found" } });
  });
});
