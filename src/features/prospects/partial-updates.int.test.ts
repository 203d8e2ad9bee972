import { describe, expect, it } from "vitest";
import { grant, newClient } from "../../test/factories";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { address } from "../roster/roster-test-helpers";
import { REASONS } from "./eligibility/reasons";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";

const TERMS = "2026-11-01T10:00:00Z";

/** spec Prospect rules 2 and Common rules 3: omitted references keep the stored ones; null clears. */
describe("partial updates of a prospect's building and unit (spec Prospect rules 2, 5)", () => {
  it("keeps the stored building and unit when an update omits them, and clears them on an explicit null", async () => {
    const { post, get, source } = await prospectPartner();
    const update = async (fields: Record<string, unknown>) => {
      await post({ source, source_prospect_id: "pu-1", terms_accepted_at: TERMS, ...fields });
      await runDueJobs();
      return (await get("pu-1")).body.prospect;
    };
    await post(completeProspect(source, "pu-1"));
    await runDueJobs();
    const ready = (await get("pu-1")).body.prospect;
    expect(ready).toMatchObject({ status: "ready", enrollment_url: expect.stringContaining("/enroll/") });

    // Omitting both: the stored references stay (a changed decision input re-runs eligibility).
    expect(await update({ first_name: "Rosa" })).toMatchObject({ status: "ready", first_name: "Rosa", enrollment_url: ready.enrollment_url });
    // Naming the building again without a unit keeps the unit of that building.
    expect(await update({ property: { external_system_id: "b1" }, monthly_rent_cents: 150001 })).toMatchObject({
      status: "ready",
      enrollment_url: ready.enrollment_url,
    });
    // Naming only the unit (the building omitted) keeps the building.
    expect(await update({ unit: { external_system_id: "u1" }, monthly_rent_cents: 150002 })).toMatchObject({ enrollment_url: ready.enrollment_url });

    const noUnit = await update({ unit: null });
    expect(noUnit).toMatchObject({ status: "ready", enrollment_url: null, hosted_enrollment_url: null });
    expect(noUnit.sdi_ineligibility_reasons).toEqual([REASONS.unitMissing]);
    // The building is still stored: the unit alone resolves again under it.
    expect(await update({ unit: { external_system_id: "u1" } })).toMatchObject({ enrollment_url: ready.enrollment_url });

    const noProperty = await update({ property: null });
    expect(noProperty).toMatchObject({ status: "ready", enrollment_url: null });
    expect(noProperty.sdi_ineligibility_reasons).toEqual([REASONS.propertyMissing, REASONS.unitMissing]);
  });

  it("does not keep a unit of another building when the building changes and the unit is omitted", async () => {
    const { post, get, source, base, token } = await prospectPartner();
    await call("POST", `${base}/properties`, { token, body: [{ external_system_id: "b2", building_name: "Building Two", address: address("20 Main St") }] });
    await call("POST", `${base}/units`, { token, body: [{ external_system_id: "u2", property_external_id: "b2", name: "201" }] });
    await post(completeProspect(source, "pu-move"));
    await post({ source, source_prospect_id: "pu-move", terms_accepted_at: TERMS, property: { external_system_id: "b2" } });
    await runDueJobs();
    expect((await get("pu-move")).body.prospect.sdi_ineligibility_reasons).toEqual([REASONS.unitMissing]);
  });

  it("resolves PMS identifiers from the stored ones merged with the supplied ones, and clears on null", async () => {
    const { post, get, source, base, token } = await prospectPartner();
    await call("POST", `${base}/properties`, {
      token,
      body: [{ external_system_id: "b-pms", building_name: "Synced", address: address("30 Oak St"), pms_type: "pms_one", pms_property_id: "PP-1" }],
    });
    await call("POST", `${base}/units`, {
      token,
      body: ["1A", "1B"].map((name) => ({ external_system_id: `u-${name}`, property_external_id: "b-pms", name, pms_unit_id: `PU-${name}` })),
    });
    const pms = { property: undefined, unit: undefined, pms_type: "pms_one", pms_property_id: "PP-1", pms_unit_id: "PU-1A" };
    await post(completeProspect(source, "pu-pms", pms));
    await runDueJobs();
    const url = (await get("pu-pms")).body.prospect.enrollment_url;
    expect(url).toEqual(expect.stringContaining("/enroll/"));

    // Only the unit identifier: the stored pms_type and pms_property_id still name the building.
    await post({ source, source_prospect_id: "pu-pms", terms_accepted_at: TERMS, pms_unit_id: "PU-1B" });
    await runDueJobs();
    expect((await get("pu-pms")).body.prospect).toMatchObject({ status: "ready", pms_property_id: "PP-1", pms_unit_id: "PU-1B", enrollment_url: url });

    await post({ source, source_prospect_id: "pu-pms", terms_accepted_at: TERMS, pms_unit_id: null });
    await runDueJobs();
    const noUnit = (await get("pu-pms")).body.prospect;
    expect(noUnit).toMatchObject({ pms_property_id: "PP-1", pms_unit_id: null, enrollment_url: null });
    expect(noUnit.sdi_ineligibility_reasons).toEqual([REASONS.unitMissing]);

    await post({ source, source_prospect_id: "pu-pms", terms_accepted_at: TERMS, pms_unit_id: "PU-1A" });
    await post({ source, source_prospect_id: "pu-pms", terms_accepted_at: TERMS, pms_property_id: null });
    await runDueJobs();
    expect((await get("pu-pms")).body.prospect.sdi_ineligibility_reasons).toEqual([REASONS.propertyMissing, REASONS.unitMissing]);
  });

  it("applies the same rule to ingested events (decisions §8: the same records as the prospect API)", async () => {
    const partner = await prospectPartner();
    const ingestion = await newClient({ gateway: "ingestion", partnerClientId: partner.client.clientId });
    await grant(ingestion, partner.owner.id);
    const token = await ingestion.token();
    const emit = (occurredAt: string, data: Record<string, unknown>) =>
      call("POST", "/ingest/events", {
        token,
        body: {
          type: "prospect.upserted",
          owner_slug: partner.owner.slug,
          source: partner.source,
          source_prospect_id: "pu-ing",
          occurred_at: occurredAt,
          data,
        },
      });
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(partner.source, "pu-ing");
    await emit("2026-11-20T10:00:00Z", data);
    await runDueJobs();
    await runDueJobs();
    const url = (await partner.get("pu-ing")).body.prospect.enrollment_url;
    expect(url).toEqual(expect.stringContaining("/enroll/"));
    await emit("2026-11-20T11:00:00Z", { property: { external_system_id: "b1" }, first_name: "Rosa" });
    await runDueJobs();
    await runDueJobs();
    expect((await partner.get("pu-ing")).body.prospect).toMatchObject({ status: "ready", first_name: "Rosa", enrollment_url: url });
    await emit("2026-11-20T12:00:00Z", { unit: null });
    await runDueJobs();
    await runDueJobs();
    expect((await partner.get("pu-ing")).body.prospect).toMatchObject({ enrollment_url: null, sdi_ineligibility_reasons: [REASONS.unitMissing] });
  });
});
