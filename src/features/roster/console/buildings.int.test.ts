import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { appErrorOf, fieldMessagesOf } from "@/server/errors";
import { logger } from "@/server/log";
import { queuedJobs } from "@/test/jobs";
import { auditLog } from "../../audit/audit-log.table";
import { reevaluationJobKey } from "../../prospects/prospect__reevaluate";
import { ROSTER_MESSAGES } from "../messages";
import { address, building, onboardingPartner } from "../roster-test-helpers";

type Role = "operator" | "account_manager";

async function caller(role: Role | null = "operator") {
  const base = { db: await getDb(), log: logger(), requestId: "test" };
  return consoleRouter.createCaller({ ...base, user: role && { id: 7, email: `${role}@example.com`, role } });
}

const unit = (id: string, property: string, extra: Record<string, unknown> = {}) => ({ external_system_id: id, property_external_id: property, ...extra });

/** A partner's building with two units whose addresses derive its street. */
async function derivedBuilding(name = "Maple Court") {
  const partner = await onboardingPartner();
  await partner.post("properties", [{ external_system_id: "b1", building_name: name, address: address("12 maple st apt 1") }]);
  await partner.post("units", [
    unit("u1", "b1", { address: address("12 Maple St Apt 1") }),
    unit("u2", "b1", { address: address("12 Maple St Apt 2"), pms_unit_id: "0002" }),
  ]);
  const row = await building(partner.owner.id, "b1");
  return { ...partner, id: row.id };
}

async function auditOf(id: number) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "building"), eq(auditLog.subjectId, String(id))))
    .orderBy(auditLog.id);
}

describe("console buildings: search and detail (decisions §12 Buildings)", () => {
  it("searches every owner's buildings by name, address, owner and external id, and filters active and locked", async () => {
    const a = await derivedBuilding("Searchable Maple Court");
    const b = await derivedBuilding("Searchable Maple Court");
    const staff = await caller("account_manager");
    const byName = await staff.buildings.search({ query: "searchable maple" });
    expect(byName.map((row) => row.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(byName.find((row) => row.id === a.id)).toEqual({
      id: a.id,
      owner_slug: a.owner.slug,
      owner_name: expect.any(String),
      external_system_id: "b1",
      building_name: "Searchable Maple Court",
      address: { line_one: "12 Maple Street", city: "Austin", state: "TX", zip: "78701" },
      active: true,
      address_locked: false,
      unit_count: 2,
    });
    expect((await staff.buildings.search({ query: a.owner.slug })).map((row) => row.id)).toEqual([a.id]);
    expect((await staff.buildings.search({ ownerSlug: b.owner.slug, query: "b1" })).map((row) => row.id)).toEqual([b.id]);
    expect((await staff.buildings.search({ ownerSlug: a.owner.slug, query: "12 Maple" })).map((row) => row.id)).toEqual([a.id]);
    expect(await staff.buildings.search({ query: "%" })).toEqual([]);
    await (await caller()).buildings.setActive({ id: a.id, active: false });
    expect((await staff.buildings.search({ ownerSlug: a.owner.slug, active: true })).map((row) => row.id)).toEqual([]);
    expect((await staff.buildings.search({ ownerSlug: a.owner.slug, active: false })).map((row) => row.id)).toEqual([a.id]);
    await (await caller()).buildings.correctAddress({ id: b.id, address: { line_one: "12 Maple St", city: "Austin", state: "TX", zip: "78701" } });
    expect((await staff.buildings.search({ query: "searchable maple", locked: true })).map((row) => row.id)).toContain(b.id);
    expect((await staff.buildings.search({ query: "searchable maple", locked: true })).map((row) => row.id)).not.toContain(a.id);
    const page = await staff.buildings.search({ limit: 1 });
    expect((await staff.buildings.search({ limit: 1, before: page[0].id }))[0].id).toBeLessThan(page[0].id);
  });

  it("shows the stored address, units and the derivation history, newest first", async () => {
    const { id, owner } = await derivedBuilding();
    const detail = await (await caller("account_manager")).buildings.detail({ id });
    expect(detail).toMatchObject({
      id,
      owner_id: owner.id,
      owner_slug: owner.slug,
      address: { line_one: "12 Maple Street", city: "Austin", state: "TX", zip: "78701" },
      address_locked: false,
      address_locked_reason: null,
      disagreements: [],
    });
    expect(detail.units.map((u) => [u.external_system_id, u.name, u.pms_unit_id])).toEqual([
      ["u1", "1", null],
      ["u2", "2", "0002"],
    ]);
    expect(detail.history.map((h) => [h.source, h.address.line_one])).toEqual([
      ["units", "12 Maple Street"],
      ["properties", "12 maple st apt 1"],
    ]);
  });

  it("answers NOT_FOUND for an unknown building, and nothing to a visitor who is not signed in", async () => {
    await expect((await caller()).buildings.detail({ id: 2_000_000_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const { id } = await derivedBuilding();
    await expect((await caller(null)).buildings.detail({ id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await caller(null)).buildings.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("console buildings: correct the address (decisions §4 correct-address, spec Address derivation)", () => {
  const corrected = { line_one: "12 Maple St, Rear", city: "Austin", state: "texas", zip: "78701-1234" };

  it("stores the line as given, the state as its abbreviation and five zip digits; locks it; records history and audit", async () => {
    const { id } = await derivedBuilding();
    const shown = await (await caller()).buildings.correctAddress({ id, address: corrected });
    expect(shown.building).toMatchObject({ address: { line_one: "12 Maple St, Rear", city: "Austin", state: "TX", zip: "78701" }, address_locked: true });
    const detail = await (await caller()).buildings.detail({ id });
    expect(detail).toMatchObject({ address_locked_reason: "staff_correction", address_locked_at: expect.any(String) });
    expect(detail.history[0]).toMatchObject({ source: "staff_correction", actor: "operator@example.com", address: shown.building.address });
    const audit = await auditOf(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "buildings.correct_address",
      actorLabel: "operator@example.com",
      actorRole: "operator",
      ownerId: detail.owner_id,
      before: { address: { line_one: "12 Maple Street", city: "Austin", state: "TX", zip: "78701" }, address_locked: false, address_locked_reason: null },
      after: { address: shown.building.address, address_locked: true, address_locked_reason: "staff_correction" },
    });
  });

  it("refuses an unknown state, a bad zip and empty fields with a message beside each field, changing nothing", async () => {
    const { id } = await derivedBuilding();
    const failure = await (await caller()).buildings
      .correctAddress({ id, address: { line_one: " ", city: "", state: "Guam", zip: "1234" } })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    const known = appErrorOf(failure);
    expect(known && fieldMessagesOf(known)).toMatchObject({
      line_one: ["is required"],
      city: ["is required"],
      state: [ROSTER_MESSAGES.invalidState],
      zip: [ROSTER_MESSAGES.invalidZip],
    });
    await expect((await caller()).buildings.detail({ id })).resolves.toMatchObject({ address_locked: false });
    expect(await auditOf(id)).toEqual([]);
  });

  it("is the operator's: an account manager gets FORBIDDEN and an anonymous caller UNAUTHORIZED, with nothing changed", async () => {
    const { id } = await derivedBuilding();
    await expect((await caller("account_manager")).buildings.correctAddress({ id, address: corrected })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await caller(null)).buildings.correctAddress({ id, address: corrected })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await (await caller()).buildings.detail({ id })).toMatchObject({ address_locked: false, address: { line_one: "12 Maple Street" } });
    expect(await auditOf(id)).toEqual([]);
  });
});

describe("console buildings: activate and deactivate (prospects re-evaluated, spec Property transitions)", () => {
  it("deactivates with the re-evaluation queued in the same change and an audit row; a repeat changes nothing", async () => {
    const { id, owner } = await derivedBuilding();
    const key = reevaluationJobKey({ ownerId: owner.id, buildingId: id });
    const queued = async () => (await queuedJobs("prospect__reevaluate")).filter((job) => job.key === key);
    expect(await queued()).toEqual([]);
    expect(await (await caller()).buildings.setActive({ id, active: false })).toEqual({ active: false, changed: true });
    expect(await queued()).toHaveLength(1);
    expect((await building(owner.id, "b1")).active).toBe(false);
    expect(await (await caller()).buildings.setActive({ id, active: false })).toEqual({ active: false, changed: false });
    expect(await (await caller()).buildings.setActive({ id, active: true })).toEqual({ active: true, changed: true });
    const audit = await auditOf(id);
    expect(audit.map((row) => [row.action, row.before, row.after])).toEqual([
      ["buildings.activate", { active: true }, { active: false }],
      ["buildings.activate", { active: false }, { active: true }],
    ]);
  });

  it("is the operator's: an account manager gets FORBIDDEN and an anonymous caller UNAUTHORIZED", async () => {
    const { id, owner } = await derivedBuilding();
    await expect((await caller("account_manager")).buildings.setActive({ id, active: false })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await caller(null)).buildings.setActive({ id, active: false })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await building(owner.id, "b1")).active).toBe(true);
    expect(await auditOf(id)).toEqual([]);
  });
});
