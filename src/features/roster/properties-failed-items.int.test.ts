import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { newClient } from "../../test/factories";
import { call } from "../../test/http";
import { grantBuilding } from "../owners/building-grants";
import { createManagedOwner } from "../owners/service";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { ROSTER_MESSAGES } from "./messages";
import { bankAccounts, properties } from "./roster.table";
import { address, bankAccountItem, building, type CollectionAnswer, onboardingPartner, serviceBuilding } from "./roster-test-helpers";

type Post = (collection: "bank_accounts" | "properties" | "units", body: unknown) => Promise<{ body: CollectionAnswer }>;

/**
 * spec Common rules 5-6, Bank account rules 4: a failed item leaves no row behind. Its identifier is
 * unknown afterwards: a unit cannot attach to it, and the valid item sent again is `created`.
 */
async function expectNothingWritten(post: Post, ownerId: number, valid: { external_system_id: string } & Record<string, unknown>) {
  const externalId = valid.external_system_id;
  expect(await building(ownerId, externalId)).toBeUndefined();
  const attach = await post("units", [{ external_system_id: `${externalId}-unit`, property_external_id: externalId, name: "1" }]);
  expect(attach.body.results[0]).toEqual({
    external_system_id: `${externalId}-unit`,
    action: "failed",
    errors: { property_external_id: [ROSTER_MESSAGES.unknownProperty] },
  });
  const resent = await post("properties", [valid]);
  expect(resent.body.results[0]).toEqual({ external_system_id: externalId, action: "created" });
}

const countOf = async (ownerId: number) => (await (await getDb()).select().from(properties).where(eq(properties.ownerId, ownerId))).length;

describe("a failed property item writes nothing (spec Common rules 5-6)", () => {
  it("unknown bank_account_external_id: no building is created", async () => {
    const { post, owner } = await onboardingPartner();
    const item = { external_system_id: "p1", building_name: "Oak", address: address("1 Oak St") };
    const failed = await post("properties", [{ ...item, bank_account_external_id: "nope" }]);
    expect(failed.body.results[0]).toEqual({
      external_system_id: "p1",
      action: "failed",
      errors: { bank_account_external_id: [ROSTER_MESSAGES.unknownBankAccount] },
    });
    expect(failed.body.meta).toEqual({ created: 0, updated: 0, failed: 1 });
    await expectNothingWritten(post, owner.id, item);
  });

  it("later items of the same batch see the state as if the failed item had never been sent", async () => {
    const { post, owner } = await onboardingPartner();
    const answer = await post("properties", [
      { external_system_id: "p1", building_name: "Oak", address: address("1 Oak St"), bank_account_external_id: "nope" },
      // Same name, street and zip as the failed item: nothing to match, so a new building.
      { external_system_id: "p2", building_name: "Oak", address: address("1 Oak Street") },
      { external_system_id: "p1", building_name: "Pine", address: address("2 Pine St") },
    ]);
    expect(answer.body.results.map((result) => [result.external_system_id, result.action])).toEqual([
      ["p1", "failed"],
      ["p2", "created"],
      ["p1", "created"],
    ]);
    expect((await building(owner.id, "p1")).buildingName).toBe("Pine");
    expect((await building(owner.id, "p2")).buildingName).toBe("Oak");
    expect(await countOf(owner.id)).toBe(2);
  });

  it("a failed update changes nothing of the stored building, even when a later item updates it", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "p1", building_name: "Oak", address: address("1 Oak St") }]);
    const before = await building(owner.id, "p1");
    const answer = await post("properties", [
      {
        external_system_id: "p1",
        building_name: "Renamed",
        type: "single_family",
        address: address("9 Other Rd", "78702"),
        policy_holder_name: "Someone Else LP",
        bank_account_external_id: "nope",
      },
      { external_system_id: "p1", active: false },
    ]);
    expect(answer.body.results.map((result) => result.action)).toEqual(["failed", "updated"]);
    const after = await building(owner.id, "p1");
    expect(after).toMatchObject({ ...before, active: false, updatedAt: expect.any(Date) });
  });

  it("a failed item does not adopt the building it matched: a later item of the batch adopts it", async () => {
    const { post, owner } = await onboardingPartner();
    const stored = await serviceBuilding(owner.id, { name: "Twin", line: "5 Twin St" });
    const answer = await post("properties", [
      { external_system_id: "x", building_name: "Twin", address: address("5 Twin St"), bank_account_external_id: "nope" },
      { external_system_id: "y", building_name: "Twin", address: address("5 Twin Street") },
    ]);
    expect(answer.body.results.map((result) => [result.external_system_id, result.action])).toEqual([
      ["x", "failed"],
      ["y", "updated"],
    ]);
    expect((await building(owner.id, "y")).id).toBe(stored.id);
    expect(await building(owner.id, "x")).toBeUndefined();
  });

  it("several matching buildings that nothing separates: nothing is created", async () => {
    const { post, owner } = await onboardingPartner();
    await serviceBuilding(owner.id, { name: "Dup", line: "7 Dup St" });
    await serviceBuilding(owner.id, { name: "Dup", line: "7 Dup Street" });
    const answer = await post("properties", [{ external_system_id: "dup", building_name: "Dup", address: address("7 Dup St") }]);
    expect(answer.body.results[0].errors).toEqual({ external_system_id: [ROSTER_MESSAGES.ambiguousBuilding] });
    expect(await countOf(owner.id)).toBe(2);
    await expectNothingWritten(post, owner.id, { external_system_id: "dup", building_name: "Dup Annex", address: address("7 Dup St") });
  });

  it("a building already linked to a different identifier: neither building changes", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "first", building_name: "Twin", address: address("5 Twin St") }]);
    const before = await building(owner.id, "first");
    const answer = await post("properties", [
      { external_system_id: "second", building_name: "Twin", address: address("5 Twin Street"), policy_holder_name: "Other LP" },
    ]);
    expect(answer.body.results[0].errors).toEqual({ external_system_id: [ROSTER_MESSAGES.buildingLinkedElsewhere] });
    expect(await building(owner.id, "first")).toEqual(before);
    await expectNothingWritten(post, owner.id, { external_system_id: "second", building_name: "Twin Two", address: address("5 Twin St") });
  });

  it("a building outside a managed owner's granted set: nothing is created", async () => {
    const db = await getDb();
    const client = await newClient();
    const owner = await createManagedOwner(db, { name: "Direct Living", externalOrgId: `direct-${client.clientId}` });
    await grantBuilding(db, { ownerSlug: owner.slug, clientId: client.clientId, pmsType: "pms_two", pmsPropertyId: "T-1" });
    const token = await client.token();
    const post: Post = (collection, body) => call<CollectionAnswer>("POST", `/api/partners/${owner.slug}/${collection}`, { token, body });
    const item = { external_system_id: "other", building_name: "Other", address: address("2 Other Rd"), pms_type: "pms_two", pms_property_id: "T-2" };
    const answer = await post("properties", [item, { ...item, external_system_id: "nopair", pms_type: undefined, pms_property_id: undefined }]);
    expect(answer.body.meta).toEqual({ created: 0, updated: 0, failed: 2 });
    expect(await countOf(owner.id)).toBe(0);
    await grantBuilding(db, { ownerSlug: owner.slug, clientId: client.clientId, pmsType: "pms_two", pmsPropertyId: "T-2" });
    await expectNothingWritten(post, owner.id, item);
  });

  it("a single-unit type on a building holding two units: the stored building keeps every field", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "mf", building_name: "MF", address: address("3 MF Ln") }]);
    await post("units", [
      { external_system_id: "x", property_external_id: "mf", name: "1" },
      { external_system_id: "y", property_external_id: "mf", name: "2" },
    ]);
    const before = await building(owner.id, "mf");
    const answer = await post("properties", [{ external_system_id: "mf", building_name: "Renamed", type: "single_family" }]);
    expect(answer.body.results[0].errors).toEqual({ type: [ROSTER_MESSAGES.typeHoldsOneUnit("single_family", 2)] });
    expect(await building(owner.id, "mf")).toEqual(before);
  });

  it("item validation failures write nothing, on creation and on update", async () => {
    const { post, owner } = await onboardingPartner();
    await post("properties", [{ external_system_id: "kept", building_name: "Kept", address: address("1 Kept St") }]);
    const before = await building(owner.id, "kept");
    const valid = (id: string, n: number) => ({ external_system_id: id, building_name: `B ${id}`, address: address(`${n} Valid St`) });
    const answer = await post("properties", [
      { ...valid("no-name", 1), building_name: undefined },
      { ...valid("no-address", 2), address: undefined },
      { ...valid("bad-state", 3), address: { ...address("3 Valid St"), state: "Texsa" } },
      { ...valid("half-pair", 4), pms_type: "pms_one" },
      { ...valid("bad-type", 5), type: "castle" },
      { external_system_id: "kept", building_name: "Renamed", address: { ...address("1 Kept St"), zip: "1234" } },
    ]);
    expect(answer.body.meta).toEqual({ created: 0, updated: 0, failed: 6 });
    expect(await building(owner.id, "kept")).toEqual(before);
    expect(await countOf(owner.id)).toBe(1);
    await expectNothingWritten(post, owner.id, valid("no-name", 1));
    await expectNothingWritten(post, owner.id, valid("bad-state", 3));
  });
});

describe("a failed bank account item writes nothing (spec Bank account rules 2, 4)", () => {
  const account = bankAccountItem;
  const accountsOf = async (ownerId: number) => (await getDb()).select().from(bankAccounts).where(eq(bankAccounts.ownerId, ownerId));

  it("default: false on the current default changes nothing of that account", async () => {
    const { post, owner } = await onboardingPartner();
    await post("bank_accounts", [account("main")]);
    const before = await accountsOf(owner.id);
    const answer = await post("bank_accounts", [account("main", { display_name: "Renamed", account_number: "999", default: false })]);
    expect(answer.body.results[0].errors).toEqual({ default: [ROSTER_MESSAGES.cannotUnsetDefault] });
    expect(await accountsOf(owner.id)).toEqual(before);
  });

  it("an invalid new account is not registered: properties cannot name it, and re-sent it is created", async () => {
    const { post, owner } = await onboardingPartner();
    const answer = await post("bank_accounts", [account("late", { display_name: undefined }), account("bad", { routing_number: "12" })]);
    expect(answer.body.meta).toEqual({ created: 0, updated: 0, failed: 2 });
    expect(await accountsOf(owner.id)).toEqual([]);
    const property = await post("properties", [{ external_system_id: "p", building_name: "P", address: address("1 P St"), bank_account_external_id: "late" }]);
    expect(property.body.results[0].errors).toEqual({ bank_account_external_id: [ROSTER_MESSAGES.unknownBankAccount] });
    const resent = await post("bank_accounts", [account("late")]);
    expect(resent.body.results[0]).toMatchObject({ external_system_id: "late", action: "created", default: true });
  });
});

describe("a failed nested creation in a prospect writes nothing (spec Prospect rules 5)", () => {
  it("answers 422 with the item's errors, and neither the building nor the prospect is created", async () => {
    const { post, owner, token, base, source } = await prospectPartner();
    const property = { external_system_id: "nested", building_name: "Nested", address: address("5 Nested St"), bank_account_external_id: "nope" };
    const answer = await post(completeProspect(source, "p-nested", { property }));
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ status_code: 422, prospect: { property: { bank_account_external_id: [ROSTER_MESSAGES.unknownBankAccount] } } });
    expect(await building(owner.id, "nested")).toBeUndefined();
    const sent = await call<CollectionAnswer>("POST", `${base}/properties`, { token, body: [{ ...property, bank_account_external_id: undefined }] });
    expect(sent.body.results[0]).toEqual({ external_system_id: "nested", action: "created" });
  });
});
