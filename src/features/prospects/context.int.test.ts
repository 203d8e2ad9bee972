import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { runDueJobs } from "../../test/jobs";
import { applications } from "../enrollment/applications/applications.table";
import { startApplication } from "../enrollment/applications/service";
import { properties, units } from "../roster/roster.table";
import { prospectContext } from "./context";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";
import { prospects } from "./prospects.table";

describe("prospectContext (docs/architecture.md, The prospect context)", () => {
  it("answers the prospect with its owner, source, property and unit", async () => {
    const { post, owner, source } = await prospectPartner();
    const posted = (await post(completeProspect(source, "ctx-full"))).body.prospect;
    const db = await getDb();
    const rows = await prospectContext(db).where(eq(prospects.id, posted.id));
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(Object.keys(row).sort()).toEqual(["owner", "property", "prospect", "source", "unit"]);
    expect(row.prospect).toMatchObject({ id: posted.id, ownerId: owner.id, sourceProspectId: "ctx-full" });
    expect(row.owner).toMatchObject({ id: owner.id, slug: owner.slug });
    expect(row.source).toMatchObject({ id: row.prospect.sourceId, code: source });
    const [building] = await db
      .select()
      .from(properties)
      .where(and(eq(properties.ownerId, owner.id), eq(properties.externalSystemId, "b1")));
    const [unit] = await db.select().from(units).where(eq(units.propertyId, building.id));
    // Whole rows, every column, as a select of each table answers them.
    expect(row.property).toEqual(building);
    expect(row.unit).toEqual(unit);
  });

  it("answers null for the property and unit a prospect does not name", async () => {
    const { post, owner, source } = await prospectPartner();
    const posted = (await post({ ...completeProspect(source, "ctx-bare"), property: undefined, unit: undefined })).body.prospect;
    const [row] = await prospectContext(await getDb()).where(eq(prospects.id, posted.id));
    expect(row.prospect).toMatchObject({ id: posted.id, propertyId: null, unitId: null });
    expect(row.owner.id).toBe(owner.id);
    expect(row.source.code).toBe(source);
    expect(row.property).toBeNull();
    expect(row.unit).toBeNull();
  });

  it("never answers another owner's prospect under the same key", async () => {
    const [mine, theirs] = [await prospectPartner(), await prospectPartner()];
    await mine.post(completeProspect(mine.source, "ctx-same"));
    await theirs.post(completeProspect(theirs.source, "ctx-same"));
    const rows = await prospectContext(await getDb()).where(and(eq(prospects.ownerId, mine.owner.id), eq(prospects.sourceProspectId, "ctx-same")));
    expect(rows.map((row) => [row.owner.slug, row.source.code])).toEqual([[mine.owner.slug, mine.source]]);
  });

  it("without the source and with a table the caller joins: those columns, the same prospect, owner, property and unit", async () => {
    const { post, source } = await prospectPartner();
    const posted = (await post(completeProspect(source, "ctx-app"))).body.prospect;
    await runDueJobs(); // eligibility: only a ready, eligible prospect starts an application
    const db = await getDb();
    const [prospect] = await db.select().from(prospects).where(eq(prospects.id, posted.id));
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    const [full] = await prospectContext(db).where(eq(prospects.id, posted.id));
    const [row] = await prospectContext(db, { also: { application: applications }, source: false })
      .innerJoin(applications, eq(applications.prospectId, prospects.id))
      .where(eq(applications.id, application.id));
    expect(Object.keys(row).sort()).toEqual(["application", "owner", "property", "prospect", "unit"]);
    expect(row.application.id).toBe(application.id);
    const { source: _source, ...rest } = full;
    expect(row).toEqual({ ...rest, application: expect.objectContaining({ id: application.id }) });
  });

  it("locks the prospect row when the caller asks (FOR UPDATE OF prospects)", async () => {
    const { post, source } = await prospectPartner();
    const posted = (await post(completeProspect(source, "ctx-lock"))).body.prospect;
    const db = await getDb();
    await db.transaction(async (tx) => {
      await prospectContext(tx).where(eq(prospects.id, posted.id)).for("update", { of: prospects });
      // Another connection cannot take the row while this transaction holds it.
      const other = db.transaction((tx2) => tx2.select().from(prospects).where(eq(prospects.id, posted.id)).for("update", { noWait: true }));
      await expect(other).rejects.toThrow();
    });
  });
});
