import os from "node:os";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auditLog } from "../features/audit/audit-log.table";
import { address, building, onboardingPartner } from "../features/roster/roster-test-helpers";
import { getDb } from "../server/db/client";
import { admin } from "./admin-test-helpers";

afterEach(() => vi.restoreAllMocks());

const unit = (id: string, extra: Record<string, unknown> = {}) => ({ external_system_id: id, property_external_id: "b", ...extra });

async function partnerBuilding() {
  const partner = await onboardingPartner();
  await partner.post("properties", [{ external_system_id: "b", building_name: "Cedar House", address: address("40 cedar ln unit 1") }]);
  await partner.post("units", [
    unit("u1", { address: address("40 Cedar Ln Unit 1") }),
    unit("u2", { address: address("40 Cedar Ln Unit 2"), pms_unit_id: "P2" }),
  ]);
  return partner;
}

describe("npm run admin -- building show / building correct-address (decisions §4)", () => {
  it("shows the building in the decisions' shape, omitting pms_unit_id when a unit has none", async () => {
    const { owner } = await partnerBuilding();
    const shown = await admin("building", "show", "--owner", owner.slug, "--external-id", "b");
    expect(shown).toMatchObject({ code: 0, err: "" });
    expect(shown.out).toEqual({
      building: {
        external_system_id: "b",
        building_name: "Cedar House",
        address: { line_one: "40 Cedar Lane", city: "Austin", state: "TX", zip: "78701" },
        address_locked: false,
        active: true,
        units: [
          { external_system_id: "u1", name: "1" },
          { external_system_id: "u2", name: "2", pms_unit_id: "P2" },
        ],
        disagreements: [],
      },
    });
  });

  it("corrects the address (state by name, ZIP+4 truncated), locks it, prints the building and audits as cli", async () => {
    const { owner, post } = await partnerBuilding();
    const corrected = await admin(
      "building",
      "correct-address",
      "--owner",
      owner.slug,
      "--external-id",
      "b",
      "--line-one",
      "40 Cedar Ln",
      "--city",
      "Austin",
      "--state",
      "Texas",
      "--zip",
      "78701-4444",
    );
    expect(corrected).toMatchObject({ code: 0, err: "" });
    expect(corrected.out).toMatchObject({
      building: { address: { line_one: "40 Cedar Ln", city: "Austin", state: "TX", zip: "78701" }, address_locked: true },
    });
    // A later load that moves every unit to another street: derived, recorded, not applied.
    await post("units", [unit("u1", { address: address("41 Birch Rd Unit 1") }), unit("u2", { address: address("41 Birch Rd Unit 2") })]);
    const shown = await admin("building", "show", "--owner", owner.slug, "--external-id", "b");
    expect(shown.out).toEqual({
      building: {
        ...(corrected.out.building as object),
        units: [
          { external_system_id: "u1", name: "1" },
          { external_system_id: "u2", name: "2", pms_unit_id: "P2" },
        ],
        disagreements: [
          { source: "units", received: { line_one: "41 Birch Road", city: "Austin", state: "TX", zip: "78701" }, recorded_at: expect.any(String) },
        ],
      },
    });
    const id = (await building(owner.id, "b")).id;
    const audit = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "building"), eq(auditLog.subjectId, String(id))));
    expect(audit).toMatchObject([{ action: "buildings.correct_address", actorLabel: `cli:${os.userInfo().username}`, actorUserId: null }]);
  });

  it("fails with a message for an unknown building, an invalid state and a missing flag", async () => {
    const { owner } = await partnerBuilding();
    const unknown = await admin("building", "show", "--owner", owner.slug, "--external-id", "nope");
    expect(unknown).toMatchObject({ code: 1, out: {} });
    expect(unknown.err).toContain(`No building nope under owner ${owner.slug}`);
    const invalid = await admin(
      "building",
      "correct-address",
      "--owner",
      owner.slug,
      "--external-id",
      "b",
      "--line-one",
      "1 A St",
      "--city",
      "Austin",
      "--state",
      "Guam",
      "--zip",
      "78701",
    );
    expect(invalid).toMatchObject({ code: 1, out: {} });
    expect(invalid.err).toMatch(/Address is invalid[\s\S]*state:/);
    const missing = await admin("building", "correct-address", "--owner", owner.slug, "--external-id", "b");
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.err).toContain("--line-one is required");
    expect((await building(owner.id, "b")).addressLockedAt).toBeNull();
  });
});
