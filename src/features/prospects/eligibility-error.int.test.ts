import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { startReceiver } from "../../test/https-receiver";
import { queuedJobs, runAttempt, runDueJobs } from "../../test/jobs";
import { units } from "../roster/roster.table";
import { address } from "../roster/roster-test-helpers";
import { REASONS } from "./eligibility/reasons";
import { ELIGIBILITY_MAX_ATTEMPTS } from "./eligibility/retry-schedule";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";

const TASK = "prospect__check_eligibility";
const hook = await startReceiver();
afterAll(hook.close);

describe("a prospect whose eligibility cannot be determined (spec Prospect status: error)", () => {
  it("is `error` with a stable reason after the bounded attempts, and a later write retries it", async () => {
    const { post, get, source, base, token } = await prospectPartner();
    await call("POST", `${base}/webhooks/endpoints`, { token, body: { endpoint: { name: "ready", destination_url: hook.url, events: ["prospect.ready"] } } });
    await call("POST", `${base}/properties`, {
      token,
      body: [{ external_system_id: "b-pms", building_name: "Synced", address: address("40 Elm St"), pms_type: "pms_one", pms_property_id: "PP-E" }],
    });
    await call("POST", `${base}/units`, { token, body: [{ external_system_id: "u-e", property_external_id: "b-pms", name: "1", pms_unit_id: "PU-E" }] });
    // A coverage rule the API would refuse, stored anyway (e.g. by an older release): the coverage
    // of a PMS-synced prospect is rent × this rule, which gives no amount, so evaluation throws.
    const db = await getDb();
    await db
      .update(units)
      .set({ defaultCoverage: { type: "multiplier", value: "one and a half" as unknown as number } })
      .where(eq(units.externalSystemId, "u-e"));
    const pms = { property: undefined, unit: undefined, pms_type: "pms_one", pms_property_id: "PP-E", pms_unit_id: "PU-E" };
    const { id } = (await post(completeProspect(source, "err-1", pms))).body.prospect;
    const key = `prospect-eligibility:${id}`;

    const job = await runAttempt(TASK, key, 1);
    expect(job).toMatchObject({ attempts: 1, max_attempts: ELIGIBILITY_MAX_ATTEMPTS });
    // graphile-worker scheduled the retry e^1 s later: the schedule eligibilityRetryDelaysSeconds models.
    expect(job?.due_in_seconds).toBeGreaterThan(1);
    expect(job?.due_in_seconds).toBeLessThan(Math.E + 0.1);
    expect((await get("err-1")).body.prospect.status).toBe("processing");

    for (let attempt = 2; attempt <= ELIGIBILITY_MAX_ATTEMPTS; attempt++) {
      expect((await get("err-1")).body.prospect.status).toBe("processing");
      await runAttempt(TASK, key, attempt);
    }
    const failed = (await get("err-1")).body.prospect;
    expect(failed).toMatchObject({ status: "error", enrollment_url: null, hosted_enrollment_url: null, effective_coverage_amount_cents: null });
    expect(failed.sdi_ineligibility_reasons).toEqual([REASONS.undetermined]);
    expect(failed.cd_ineligibility_reasons).toEqual([REASONS.undetermined]);
    // Given up: graphile-worker keeps the job but never runs it again.
    expect(await queuedJobs(TASK)).toEqual([expect.objectContaining({ key, attempts: ELIGIBILITY_MAX_ATTEMPTS })]);
    await runDueJobs(); // delivers the event
    const events = hook.received.map((request) => JSON.parse(request.rawBody));
    expect(events.map((event) => event.data.third_party_prospect)).toEqual([
      expect.objectContaining({ source_prospect_id: "err-1", status: "error", enrollment_url: null, hosted_enrollment_url: null }),
    ]);

    // The roster is corrected, and the partner's next write retries the prospect.
    await call("POST", `${base}/units`, {
      token,
      body: [{ external_system_id: "u-e", property_external_id: "b-pms", default_coverage: { type: "multiplier", value: 1.5 } }],
    });
    expect((await post({ source, source_prospect_id: "err-1", terms_accepted_at: "2026-11-01T10:00:00Z" })).body.prospect.status).toBe("processing");
    await runDueJobs();
    const ready = (await get("err-1")).body.prospect;
    expect(ready).toMatchObject({ status: "ready", enrollment_url: expect.stringContaining("/enroll/"), effective_coverage_amount_cents: 225000 });
    expect(ready).not.toHaveProperty("sdi_ineligibility_reasons");
  });

  it("gives a guarantee prospect the reason on the guarantee, without an eligibility status", async () => {
    const { post, get, source, base, token } = await prospectPartner({ guarantorCapable: true });
    await call("POST", `${base}/properties`, { token, body: [{ external_system_id: "b-g", building_name: "Guarded", address: address("50 Elm St") }] });
    await call("POST", `${base}/units`, { token, body: [{ external_system_id: "u-g", property_external_id: "b-g", name: "1" }] });
    const db = await getDb();
    await db
      .update(units)
      .set({ defaultCoverage: { type: "multiplier", value: "double" as unknown as number } })
      .where(eq(units.externalSystemId, "u-g"));
    const guarantee = { guarantor_coverage: true, property: { external_system_id: "b-g" }, unit: { external_system_id: "u-g" } };
    const { id } = (await post(completeProspect(source, "err-g", guarantee))).body.prospect;
    for (let attempt = 1; attempt <= ELIGIBILITY_MAX_ATTEMPTS; attempt++) await runAttempt(TASK, `prospect-eligibility:${id}`, attempt);
    const failed = (await get("err-g")).body.prospect;
    expect(failed).toMatchObject({ status: "error", enrollment_url: null, rg_ineligibility_reasons: [REASONS.undetermined] });
    expect(failed).not.toHaveProperty("rg_eligibility_status");
    expect(failed.sdi_ineligibility_reasons).toEqual([REASONS.guaranteeExclusive]);
  });
});
