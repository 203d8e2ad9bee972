import { afterAll, describe, expect, it } from "vitest";
import { call } from "../../test/http";
import { startReceiver } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => Promise.all(closers.map((close) => close())));

async function subscribed(options: Parameters<typeof prospectPartner>[0] = {}) {
  const partner = await prospectPartner(options);
  const hook = await startReceiver();
  closers.push(hook.close);
  const events = ["prospect.created", "prospect.ready", "prospect.incomplete", "move_out.initiated"];
  await call("POST", `${partner.base}/webhooks/endpoints`, { token: partner.token, body: { endpoint: { name: "all", destination_url: hook.url, events } } });
  const bodies = () =>
    hook.received.map((r) => JSON.parse(r.rawBody) as { event: string; property_owner_slug: string; data: Record<string, Record<string, unknown>> });
  return { ...partner, hook, bodies };
}

describe("prospect and move-out events (spec Event catalog, Prospect payload)", () => {
  it("sends prospect.created with only the partner's id, then prospect.ready with the full payload", async () => {
    const { post, source, owner, bodies } = await subscribed();
    const created = await post(completeProspect(source, "ev-1"));
    await runDueJobs(); // delivers prospect.created, runs eligibility (which emits prospect.ready)
    await runDueJobs(); // delivers prospect.ready
    const byEvent = Object.fromEntries(bodies().map((body) => [body.event, body]));
    expect(byEvent["prospect.created"]).toEqual({ event: "prospect.created", property_owner_slug: owner.slug, data: { third_party_prospect: { id: "ev-1" } } });
    const ready = byEvent["prospect.ready"].data.third_party_prospect;
    expect(ready).toEqual({
      id: `tpp_${created.body.prospect.id}`,
      source_prospect_id: "ev-1",
      status: "ready",
      enrollment_url: expect.stringContaining("/enroll/embedded/"),
      hosted_enrollment_url: expect.stringContaining("/enroll/expedited/"),
      guarantor_coverage: false,
    });
  });

  it("sends prospect.incomplete with both URLs null when a ready prospect loses a required field", async () => {
    const { post, source, bodies } = await subscribed();
    await post(completeProspect(source, "ev-2"));
    await runDueJobs();
    await post({ source, source_prospect_id: "ev-2", terms_accepted_at: "2026-11-01T00:00:00Z", birthdate: null });
    await runDueJobs();
    const incomplete = bodies().find((body) => body.event === "prospect.incomplete")?.data.third_party_prospect;
    expect(incomplete).toMatchObject({ status: "incomplete", enrollment_url: null, hosted_enrollment_url: null, source_prospect_id: "ev-2" });
  });

  it("carries guarantee keys on guarantee prospects and PMS identifiers as supplied, pms_type only for pms_one", async () => {
    const { post, source, bodies } = await subscribed();
    await post(
      completeProspect(source, "ev-3", {
        guarantor_coverage: true,
        property: undefined,
        unit: undefined,
        pms_type: "pms_two",
        pms_property_id: "PP-1",
        pms_unit_id: "UU-1",
      }),
    );
    await post(completeProspect(source, "ev-4", { pms_type: "pms_one", pms_property_id: "PP-2", pms_prospect_id: "PR-2" }));
    await runDueJobs();
    await runDueJobs();
    const ready = bodies()
      .filter((body) => body.event === "prospect.ready")
      .map((body) => body.data.third_party_prospect);
    const guarantee = ready.find((p) => p.source_prospect_id === "ev-3");
    expect(guarantee).toMatchObject({
      guarantor_coverage: true,
      rg_eligibility_status: "ineligible",
      rg_ineligibility_reasons: expect.any(Array),
      pms_property_id: "PP-1",
      pms_unit_id: "UU-1",
    });
    expect(guarantee).not.toHaveProperty("pms_type");
    expect(guarantee).not.toHaveProperty("sdi_ineligibility_reasons");
    const pmsOne = ready.find((p) => p.source_prospect_id === "ev-4");
    expect(pmsOne).toMatchObject({ pms_type: "pms_one", pms_property_id: "PP-2", pms_prospect_id: "PR-2" });
    expect(pmsOne).not.toHaveProperty("pms_unit_id");
    expect(pmsOne).not.toHaveProperty("rg_ineligibility_reasons");
  });

  it("sends move_out.initiated once, on creation only", async () => {
    const { base, token, bodies } = await subscribed();
    const body = {
      external_id: "mo-ev",
      move_out_date: "2026-12-31",
      property: { address_line_one: "1 A St", address_city: "Austin", address_state: "TX", address_zip: "78701" },
      residents: [{ role: "primary", name: "Rita" }],
    };
    const created = await call<{ move_out: { move_out_id: number } }>("POST", `${base}/move_outs`, { token, body });
    await call("POST", `${base}/move_outs`, { token, body });
    await runDueJobs();
    const moveOuts = bodies().filter((b) => b.event === "move_out.initiated");
    expect(moveOuts.map((b) => b.data)).toEqual([{ move_out: { move_out_id: created.body.move_out.move_out_id, external_id: "mo-ev", status: "initiated" } }]);
  });
});
