import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { decryptSecret } from "../../server/secrets";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { properties, units } from "../roster/roster.table";
import { address } from "../roster/roster-test-helpers";
import { REASONS } from "./eligibility/reasons";
import { PROSPECT_MESSAGES } from "./messages";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";
import { prospects } from "./prospects.table";

describe("POST /partners/{owner_slug}/prospects (spec Prospect rules)", () => {
  it("creates with HTTP 200 and body 201, echoes written fields, never echoes secrets, and starts processing", async () => {
    const { post, source } = await prospectPartner();
    const answer = await post(completeProspect(source, "p-1"));
    expect(answer.status).toBe(200);
    expect(answer.body.status_code).toBe(201);
    const prospect = answer.body.prospect;
    expect(prospect).toMatchObject({
      id: expect.any(Number),
      source,
      source_prospect_id: "p-1",
      email: "Renter@Example.com",
      phone: "5125550123",
      birthdate: "1990-04-02",
      monthly_rent_cents: 150000,
      status: "processing",
      enrollment_url: null,
      hosted_enrollment_url: null,
      offered_products: [],
      application_submitted: false,
      latest_coverage: null,
      percent_savings: null,
      guarantor_coverage: false,
    });
    for (const secret of [
      "social_security_number",
      "education_level",
      "citizenship",
      "terms_accepted_at",
      "rg_eligibility_status",
      "rg_ineligibility_reasons",
      "sdi_ineligibility_reasons",
    ]) {
      expect(prospect).not.toHaveProperty(secret);
    }
    expect(answer.text).not.toContain("123-45-6789");
    const [row] = await (await getDb()).select().from(prospects).where(eq(prospects.id, prospect.id));
    expect(decryptSecret(row.ssnEncrypted ?? "")).toBe("123456789");
  });

  it("becomes ready with enrollment links once the eligibility job ran", async () => {
    const { post, get, source, owner } = await prospectPartner();
    await post(completeProspect(source, "p-ready"));
    await runDueJobs();
    const answer = await get("p-ready");
    expect(answer.status).toBe(200);
    expect(answer.body.status_code).toBe(200);
    const prospect = answer.body.prospect;
    expect(prospect.status).toBe("ready");
    expect(prospect.effective_coverage_amount_cents).toBe(150000);
    const url = new URL(String(prospect.enrollment_url));
    expect(url.pathname).toBe(`/enroll/embedded/${owner.slug}/${source}/p-ready`);
    expect(url.searchParams.get("email")).toBe("Renter@Example.com");
    expect(url.searchParams.get("sig")).toMatch(/^[\w-]{32}$/);
    expect(new URL(String(prospect.hosted_enrollment_url)).pathname).toBe(`/enroll/expedited/${owner.slug}/${source}/p-ready`);
    expect(prospect).not.toHaveProperty("sdi_ineligibility_reasons");
  });

  it("updates with body 200, writing only supplied fields", async () => {
    const { post, source } = await prospectPartner();
    await post(completeProspect(source, "p-upd"));
    const answer = await post({ source, source_prospect_id: "p-upd", terms_accepted_at: "2026-11-02T00:00:00Z", first_name: "Rosa" });
    expect(answer.status).toBe(200);
    expect(answer.body.status_code).toBe(200);
    expect(answer.body.prospect).toMatchObject({ first_name: "Rosa", last_name: "Renter", phone: "5125550123" });
  });

  it("answers 422 in the specification's shape for missing keys and an invalid phone, writing nothing", async () => {
    const { post, source } = await prospectPartner();
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ source_prospect_id: "x", terms_accepted_at: "2026-11-01T00:00:00Z" }, { source: PROSPECT_MESSAGES.blank }],
      [{ source, terms_accepted_at: "2026-11-01T00:00:00Z" }, { source_prospect_id: PROSPECT_MESSAGES.blank }],
      [{ source, source_prospect_id: "x" }, { terms_accepted_at: PROSPECT_MESSAGES.blank }],
      [{ source, source_prospect_id: "x", terms_accepted_at: "" }, { terms_accepted_at: PROSPECT_MESSAGES.blank }],
      [{ source, source_prospect_id: "x", terms_accepted_at: "2026-11-01T00:00:00Z", phone: "(512) 555-0123" }, { phone: PROSPECT_MESSAGES.invalidPhone }],
      [{ source, source_prospect_id: "x", terms_accepted_at: "2026-11-01T00:00:00Z", phone: "15125550123" }, { phone: PROSPECT_MESSAGES.invalidPhone }],
      [{ source: "not-mine", source_prospect_id: "x", terms_accepted_at: "2026-11-01T00:00:00Z" }, { source: PROSPECT_MESSAGES.unknownSource }],
    ];
    for (const [prospect, fields] of cases) {
      const answer = await post(prospect);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ status_code: 422, error: PROSPECT_MESSAGES.invalid, prospect: fields });
    }
    expect(await (await getDb()).select().from(prospects).where(eq(prospects.sourceProspectId, "x"))).toEqual([]);
  });

  it("creates a nested building and unit from full items, and fails the whole request when one cannot be created", async () => {
    const { post, source } = await prospectPartner();
    const created = await post(
      completeProspect(source, "p-nested", {
        property: { external_system_id: "b-new", building_name: "New Tower", address: { line_one: "77 New St", city: "Austin", state: "TX", zip: "78702" } },
        unit: { external_system_id: "u-new", name: "7A" },
      }),
    );
    expect(created.body.status_code).toBe(201);
    const failed = await post(
      completeProspect(source, "p-bad-nested", {
        property: { external_system_id: "b-bad", building_name: "Bad", address: { line_one: "1 Bad St", city: "Austin", state: "Nowhere", zip: "78702" } },
      }),
    );
    expect(failed.status).toBe(422);
    expect(failed.body).toEqual({ status_code: 422, error: PROSPECT_MESSAGES.invalid, prospect: { property: { "address.state": [expect.any(String)] } } });
    const failedUnit = await post(
      completeProspect(source, "p-bad-unit", {
        property: { external_system_id: "b1" },
        unit: { external_system_id: "u-nameless", address: { line_one: "10 Main St" } },
      }),
    );
    expect(failedUnit.status).toBe(422);
    expect(failedUnit.body).toMatchObject({ prospect: { unit: { name: ["Unit name is required and could not be derived"] } } });
    const rows = await (await getDb()).select().from(prospects).where(eq(prospects.sourceProspectId, "p-bad-nested"));
    expect(rows).toEqual([]);
  });

  it("attaches references to the named building and unit, among several of each", async () => {
    const { post, source, base, token } = await prospectPartner();
    // Record ids that differ from each other, so a lookup joined on the wrong column cannot pass.
    await call("POST", `${base}/properties`, { token, body: [{ external_system_id: "b2", building_name: "Building Two", address: address("20 Main St") }] });
    await call("POST", `${base}/units`, {
      token,
      body: ["201", "202", "203"].map((name) => ({ external_system_id: `u-${name}`, property_external_id: "b2", name })),
    });
    const answer = await post(completeProspect(source, "p-refs", { property: { external_system_id: "b2" }, unit: { external_system_id: "u-203" } }));
    expect(answer.status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(prospects).where(eq(prospects.id, answer.body.prospect.id));
    const [unit] = await db
      .select()
      .from(units)
      .where(eq(units.id, row.unitId ?? 0));
    const [property] = await db
      .select()
      .from(properties)
      .where(eq(properties.id, row.propertyId ?? 0));
    expect([property?.externalSystemId, unit?.externalSystemId, unit?.propertyId]).toEqual(["b2", "u-203", property?.id]);
    const unknownUnit = await post(completeProspect(source, "p-refs-2", { property: { external_system_id: "b2" }, unit: { external_system_id: "u1" } }));
    const [second] = await db.select().from(prospects).where(eq(prospects.id, unknownUnit.body.prospect.id));
    expect([second.propertyId, second.unitId]).toEqual([property?.id, null]);
  });

  it("stays incomplete until required fields are present, and optional-ingest sources skip three of them", async () => {
    const strict = await prospectPartner();
    const { screening_result: _s, employment_status: _e, yearly_income: _y, ...withoutOptional } = completeProspect(strict.source, "p-opt");
    expect((await strict.post(withoutOptional)).body.prospect.status).toBe("incomplete");
    const lenient = await prospectPartner({ optionalIngestFields: true });
    expect((await lenient.post({ ...withoutOptional, source: lenient.source })).body.prospect.status).toBe("processing");
    const { deposit_amount_cents: _d, ...withoutDeposit } = completeProspect(strict.source, "p-guarantee", { guarantor_coverage: true });
    expect((await strict.post(withoutDeposit)).body.prospect.status).toBe("processing");
  });

  it("returns a ready prospect to incomplete when a required field is cleared, clearing the decision", async () => {
    const { post, source } = await prospectPartner();
    await post(completeProspect(source, "p-clear"));
    await runDueJobs();
    const cleared = await post({ source, source_prospect_id: "p-clear", terms_accepted_at: "2026-11-01T00:00:00Z", phone: null });
    expect(cleared.body.prospect).toMatchObject({
      status: "incomplete",
      enrollment_url: null,
      hosted_enrollment_url: null,
      effective_coverage_amount_cents: null,
    });
  });

  it("gives no enrollment URL and the stable reasons when the building or unit is missing or the owner is inactive", async () => {
    const { post, get, source } = await prospectPartner({ activate: false });
    await post(completeProspect(source, "p-noprop", { property: null, unit: null }));
    await post(completeProspect(source, "p-nounit", { unit: null }));
    await post(completeProspect(source, "p-inactive"));
    await runDueJobs();
    const noProperty = (await get("p-noprop")).body.prospect;
    expect(noProperty).toMatchObject({ status: "ready", enrollment_url: null, hosted_enrollment_url: null });
    expect(noProperty.sdi_ineligibility_reasons).toEqual(expect.arrayContaining([REASONS.propertyMissing, REASONS.unitMissing]));
    expect((await get("p-nounit")).body.prospect.cd_ineligibility_reasons).toContain(REASONS.unitMissing);
    expect((await get("p-inactive")).body.prospect.sdi_ineligibility_reasons).toEqual([REASONS.purchaseFlowDisabled]);
  });

  it("answers 404 for an unknown prospect", async () => {
    const { get } = await prospectPartner();
    const answer = await get("nobody");
    expect(answer).toMatchObject({ status: 404, body: { status_code: 404, error: PROSPECT_MESSAGES.notFound } });
  });

  it("creates exactly one prospect from 20 concurrent first POSTs", async () => {
    const { post, source } = await prospectPartner();
    const body = completeProspect(source, "p-race");
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(body)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.status_code === 201)).toHaveLength(1);
    expect(await (await getDb()).select().from(prospects).where(eq(prospects.sourceProspectId, "p-race"))).toHaveLength(1);
  });
});
