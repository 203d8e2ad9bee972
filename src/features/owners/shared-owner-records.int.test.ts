import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { unique } from "../../test/factories";
import { runDueJobs } from "../../test/jobs";
import { MOVE_OUT_MESSAGES } from "../move-outs/messages";
import { REASONS } from "../prospects/eligibility/reasons";
import { PROSPECT_MESSAGES } from "../prospects/messages";
import { prospects } from "../prospects/prospects.table";
import { managedOwnerWithTwoPartners, moveOutBody, partnerOwnerWithTwoPartners } from "./shared-owner-test-helpers";

/** docs/decisions.md, "Prospects" and "Move-outs and reset": partners sharing an owner are isolated; another partner's record answers 404. */

const locationOf = async (id: number) => {
  const [row] = await (await getDb()).select({ propertyId: prospects.propertyId, unitId: prospects.unitId }).from(prospects).where(eq(prospects.id, id));
  return row;
};

describe("partners sharing a managed owner: prospects", () => {
  it("another partner's prospect answers 404 exactly like an absent one, and its source is refused like an unknown one", async () => {
    const { a, b } = await managedOwnerWithTwoPartners();
    const created = await a.postProspect(a.prospect("shared-1"));
    expect(created.body.status_code).toBe(201);
    expect((await a.getProspect(a.source, "shared-1")).status).toBe(200);

    const theirs = await b.getProspect(a.source, "shared-1");
    const absent = await b.getProspect(a.source, "never-posted");
    expect(theirs).toMatchObject({ status: 404, body: { status_code: 404, error: PROSPECT_MESSAGES.notFound } });
    expect(theirs.body).toEqual(absent.body);

    // POST under the other partner's source: the same 422 as a source that does not exist at all.
    const viaTheirSource = await b.postProspect(a.prospect("shared-1", { first_name: "Overwritten" }));
    const viaNoSource = await b.postProspect(a.prospect("shared-1", { source: "no_such_source" }));
    expect(viaTheirSource.status).toBe(422);
    expect(viaTheirSource.body).toEqual(viaNoSource.body);
    expect(viaTheirSource.body).toEqual({ status_code: 422, error: PROSPECT_MESSAGES.invalid, prospect: { source: PROSPECT_MESSAGES.unknownSource } });
    expect((await a.getProspect(a.source, "shared-1")).body.prospect.first_name).toBe("Rita");
  });

  it("resolves nested references and pms identifiers only to buildings granted to the calling partner", async () => {
    const { a, b } = await managedOwnerWithTwoPartners();
    const own = await b.postProspect(b.prospect("own"));
    expect(await locationOf(own.body.prospect.id)).toEqual({ propertyId: expect.any(Number), unitId: expect.any(Number) });

    // A's building and unit, named by B: behave as unknown (stored, unresolved, no enrollment URL).
    const nested = await b.postProspect(b.prospect("nested", { property: { external_system_id: a.building }, unit: { external_system_id: a.unit } }));
    expect(nested.status).toBe(200);
    expect(await locationOf(nested.body.prospect.id)).toEqual({ propertyId: null, unitId: null });

    const pmsA = a.building.replace("bldg-", "");
    const byPms = await b.postProspect(
      b.prospect("pms", { property: undefined, unit: undefined, pms_type: "pms_one", pms_property_id: pmsA, pms_unit_id: `U-${pmsA}` }),
    );
    expect(await locationOf(byPms.body.prospect.id)).toEqual({ propertyId: null, unitId: null });
    const pmsB = b.building.replace("bldg-", "");
    const ownPms = await b.postProspect(
      b.prospect("own-pms", { property: undefined, unit: undefined, pms_type: "pms_one", pms_property_id: pmsB, pms_unit_id: `U-${pmsB}` }),
    );
    expect(await locationOf(ownPms.body.prospect.id)).toEqual(await locationOf(own.body.prospect.id));

    await runDueJobs();
    for (const id of ["nested", "pms"]) {
      const read = await b.getProspect(b.source, id);
      expect(read.body.prospect.enrollment_url).toBeNull();
      expect(read.body.prospect.sdi_ineligibility_reasons).toContain(REASONS.propertyMissing);
    }
    // The same reference from A, to whom the building is granted, resolves.
    const fromA = await a.postProspect(a.prospect("a-own"));
    expect(await locationOf(fromA.body.prospect.id)).toEqual({ propertyId: expect.any(Number), unitId: expect.any(Number) });
  });
});

describe.each([
  ["a managed owner with building grants", managedOwnerWithTwoPartners],
  ["a partner-created owner granted to a second partner", partnerOwnerWithTwoPartners],
])("partners sharing %s", (_, setup) => {
  it("see only their own move-outs; another partner's external_id is refused without revealing the record", async () => {
    const { a, b } = await setup();
    const key = unique("mo");
    const created = await a.postMoveOut(moveOutBody(key));
    expect(created.status).toBe(201);
    const id = created.body.move_out.move_out_id;
    expect((await a.getMoveOut(id)).status).toBe(200);

    const theirs = await b.getMoveOut(id);
    expect(theirs).toMatchObject({ status: 404, body: { status_code: 404, error: MOVE_OUT_MESSAGES.notFound } });
    expect(theirs.body).toEqual((await b.getMoveOut(999_999_999)).body);

    // The key is unique per owner (spec Move-out), so B cannot have its own; B learns only that it is taken.
    const again = await b.postMoveOut(moveOutBody(key));
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ status_code: 422, error: MOVE_OUT_MESSAGES.invalid, move_out: { external_id: MOVE_OUT_MESSAGES.taken } });
    expect((await a.postMoveOut(moveOutBody(key))).status).toBe(200);
    expect((await b.postMoveOut(moveOutBody())).status).toBe(201);
  });

  it("reset clears only the calling partner's prospects", async () => {
    const { a, b } = await setup();
    const email = `${unique("renter")}@example.com`;
    const mine = await a.postProspect(a.prospect("r-a", { email }));
    await b.postProspect(b.prospect("r-b", { email }));
    const reset = await a.reset(email.toUpperCase());
    expect(reset.status).toBe(200);
    expect(reset.body.prospect_ids).toEqual([mine.body.prospect.id]);
    expect((await a.getProspect(a.source, "r-a")).status).toBe(404);
    expect((await b.getProspect(b.source, "r-b")).status).toBe(200);
    expect((await b.reset(email)).body.prospect_ids).toHaveLength(1);
  });
});
