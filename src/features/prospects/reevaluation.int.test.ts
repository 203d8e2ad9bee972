import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { startReceiver } from "../../test/https-receiver";
import { queuedJobs, runDueJobs, runDueJobsCounted } from "../../test/jobs";
import { address } from "../roster/roster-test-helpers";
import { REASONS } from "./eligibility/reasons";
import { reevaluateTask } from "./prospect__reevaluate";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";
import { prospects } from "./prospects.table";

const hook = await startReceiver();
afterAll(hook.close);

type Event = { event: string; data: { third_party_prospect: Record<string, unknown> } };

/** A partner subscribed to `prospect.ready` (unless told), with one ready prospect on building b1, unit u1. */
async function readyProspect(id: string, extra: Record<string, unknown> = {}, subscribe = true) {
  const partner = await prospectPartner();
  if (subscribe)
    await call("POST", `${partner.base}/webhooks/endpoints`, {
      token: partner.token,
      body: { endpoint: { name: "ready", destination_url: hook.url, events: ["prospect.ready"] } },
    });
  await partner.post(completeProspect(partner.source, id, extra));
  await runDueJobs(); // eligibility
  await runDueJobs(); // its prospect.ready delivery
  const ready = (await partner.get(id)).body.prospect;
  expect(ready).toMatchObject({ status: "ready", enrollment_url: expect.stringContaining("/enroll/") });
  const seen = hook.received.length;
  /** The `prospect.ready` payloads delivered for this prospect since it became ready. */
  const events = () =>
    hook.received
      .slice(seen)
      .map((request) => JSON.parse(request.rawBody) as Event)
      .filter((event) => event.data.third_party_prospect.source_prospect_id === id)
      .map((event) => event.data.third_party_prospect);
  const postProperties = (body: unknown) => call("POST", `${partner.base}/properties`, { token: partner.token, body });
  const postOwner = (fields: Record<string, unknown>) =>
    call("POST", "/api/partners/property_owners", { token: partner.token, body: { external_org_id: partner.owner.externalOrgId, ...fields } });
  /** Runs the re-evaluation, then the deliveries it caused. */
  const settle = async () => {
    await runDueJobs();
    await runDueJobs();
  };
  return { ...partner, ready, events, postProperties, postOwner, settle };
}

describe("decisions follow the roster (spec Property transitions, Provisioning order step 5)", () => {
  it("withdraws the URLs of a deactivated building's prospects and restores them on reactivation, with prospect.ready", async () => {
    const { get, ready, events, postProperties, settle } = await readyProspect("re-active");
    await postProperties([{ external_system_id: "b1", active: false }]);
    expect(await queuedJobs(reevaluateTask.name)).toHaveLength(1);
    await settle();
    const inactive = (await get("re-active")).body.prospect;
    expect(inactive).toMatchObject({ status: "ready", enrollment_url: null, hosted_enrollment_url: null });
    expect(inactive.sdi_ineligibility_reasons).toEqual([REASONS.propertyInactive]);
    expect(inactive.cd_ineligibility_reasons).toEqual([REASONS.propertyInactive]);
    expect(events()).toEqual([expect.objectContaining({ status: "ready", enrollment_url: null, hosted_enrollment_url: null })]);

    await postProperties([{ external_system_id: "b1", active: true }]);
    await settle();
    const restored = (await get("re-active")).body.prospect;
    expect(restored).toMatchObject({ status: "ready", enrollment_url: ready.enrollment_url, hosted_enrollment_url: ready.hosted_enrollment_url });
    expect(restored).not.toHaveProperty("sdi_ineligibility_reasons");
    expect(events()).toHaveLength(2);
    expect(events()[1]).toMatchObject({ status: "ready", enrollment_url: ready.enrollment_url });

    // A change that alters no decision (a new name) re-evaluates and emits nothing.
    await postProperties([{ external_system_id: "b1", building_name: "Building One Renamed" }]);
    await settle();
    expect(events()).toHaveLength(2);
  });

  it("follows the owner's purchase flow", async () => {
    const { get, ready, events, postOwner, settle } = await readyProspect("re-flow");
    expect((await postOwner({ purchase_flow_enabled: false })).status).toBe(200);
    await settle();
    const off = (await get("re-flow")).body.prospect;
    expect(off).toMatchObject({ enrollment_url: null, sdi_ineligibility_reasons: [REASONS.purchaseFlowDisabled] });
    await postOwner({ purchase_flow_enabled: true });
    await settle();
    expect((await get("re-flow")).body.prospect).toMatchObject({ enrollment_url: ready.enrollment_url });
    expect(events().map((event) => event.enrollment_url)).toEqual([null, ready.enrollment_url]);
  });

  it("declines deposit insurance when the coverage ceiling falls below the prospect's coverage (URLs stay: cash deposit remains)", async () => {
    const { get, ready, events, postOwner, settle } = await readyProspect("re-max");
    await postOwner({ max_coverage_amount_cents: 100000 });
    await settle();
    const capped = (await get("re-max")).body.prospect;
    expect(capped).toMatchObject({ effective_coverage_amount_cents: 100000, sdi_ineligibility_reasons: [REASONS.coverageAboveMaximum] });
    expect(capped).not.toHaveProperty("cd_ineligibility_reasons");
    expect(capped.enrollment_url).toBe(ready.enrollment_url);
    expect(events()).toEqual([]); // the URLs did not change: nothing visible in the payload
    await postOwner({ max_coverage_amount_cents: null });
    await settle();
    expect((await get("re-max")).body.prospect).not.toHaveProperty("sdi_ineligibility_reasons");
  });

  it("follows a unit's coverage rule, and leaves other buildings' prospects alone", async () => {
    const { base, token, get, post, source, settle } = await readyProspect("re-unit");
    await call("POST", `${base}/properties`, {
      token,
      body: [{ external_system_id: "b-pms", building_name: "Synced", address: address("60 Elm St"), pms_type: "pms_one", pms_property_id: "PP-R" }],
    });
    await call("POST", `${base}/units`, { token, body: [{ external_system_id: "u-r", property_external_id: "b-pms", name: "1", pms_unit_id: "PU-R" }] });
    await post(completeProspect(source, "re-pms", { property: undefined, unit: undefined, pms_type: "pms_one", pms_property_id: "PP-R", pms_unit_id: "PU-R" }));
    await runDueJobs();
    expect((await get("re-pms")).body.prospect.effective_coverage_amount_cents).toBe(150000);
    const db = await getDb();
    const [before] = await db.select().from(prospects).where(eq(prospects.sourceProspectId, "re-unit"));
    await call("POST", `${base}/units`, {
      token,
      body: [{ external_system_id: "u-r", property_external_id: "b-pms", default_coverage: { type: "multiplier", value: 2 } }],
    });
    expect((await queuedJobs(reevaluateTask.name)).map((job) => job.payload)).toEqual([expect.objectContaining({ buildingId: expect.any(Number) })]);
    await settle();
    expect((await get("re-pms")).body.prospect.effective_coverage_amount_cents).toBe(300000);
    const [after] = await db.select().from(prospects).where(eq(prospects.sourceProspectId, "re-unit"));
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("coalesces a burst of changes into one waiting job, which applies the latest roster", async () => {
    const { get, postProperties, settle } = await readyProspect("re-burst");
    await postProperties([{ external_system_id: "b1", active: false }]);
    await postProperties([{ external_system_id: "b1", active: true }]);
    await postProperties([{ external_system_id: "b1", active: false }]);
    expect(await queuedJobs(reevaluateTask.name)).toHaveLength(1);
    await settle();
    expect((await get("re-burst")).body.prospect).toMatchObject({ enrollment_url: null, sdi_ineligibility_reasons: [REASONS.propertyInactive] });
  });

  it("re-evaluates 1,000 prospects of a building with a handful of set-based jobs, not one per prospect", async () => {
    // Not subscribed: this measures the re-evaluation, not 1,000 deliveries to the test receiver.
    const { get, owner, postProperties } = await readyProspect("bulk-0", {}, false);
    const db = await getDb();
    const [model] = await db
      .select()
      .from(prospects)
      .where(and(eq(prospects.ownerId, owner.id), eq(prospects.sourceProspectId, "bulk-0")));
    const { id: _id, ...columns } = model;
    for (let start = 1; start < 1000; start += 500) {
      const rows = Array.from({ length: Math.min(500, 1000 - start) }, (_, index) => ({ ...columns, sourceProspectId: `bulk-${start + index}` }));
      await db.insert(prospects).values(rows);
    }
    await postProperties([{ external_system_id: "b1", active: false }]);
    expect(await queuedJobs(reevaluateTask.name)).toHaveLength(1);
    const started = Date.now();
    const ran = await runDueJobsCounted();
    expect(Date.now() - started).toBeLessThan(10_000); // "within seconds", on a loaded 2-core machine
    // 1,000 prospects in chunks of 500: two full chunks and a last, empty look.
    expect(ran[reevaluateTask.name]).toBeLessThanOrEqual(3);
    expect(ran.prospect__check_eligibility).toBeUndefined();
    const [{ withdrawn }] = await db.execute<{ withdrawn: number }>(
      sql`select count(*)::int as withdrawn from prospects where owner_id = ${owner.id} and eligibility->'sdi' ? ${REASONS.propertyInactive}`,
    );
    expect(withdrawn).toBe(1000);
    expect((await get("bulk-777")).body.prospect).toMatchObject({ status: "ready", enrollment_url: null });
  });
});
