import { afterAll, describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import { unique } from "@/test/factories";
import { call } from "@/test/http";
import { startReceiver } from "@/test/https-receiver";
import { runDueJobs } from "@/test/jobs";
import { completeProspect, prospectPartner } from "../prospect-test-helpers";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => Promise.all(closers.map((close) => close())));

async function caller(role: "operator" | "account_manager" | null = "operator") {
  const base = { db: await getDb(), log: logger(), requestId: "test" };
  return consoleRouter.createCaller({ ...base, user: role && { id: 1, email: "staff@example.com", role } });
}

/** A partner subscribed to prospect events, with one complete prospect delivered and evaluated. */
async function evaluatedProspect() {
  const partner = await prospectPartner();
  const hook = await startReceiver();
  closers.push(hook.close);
  await call("POST", `${partner.base}/webhooks/endpoints`, {
    token: partner.token,
    body: { endpoint: { name: "prospects", destination_url: hook.url, events: ["prospect.created", "prospect.ready"] } },
  });
  const sourceProspectId = unique("cp");
  const email = `${unique("renter")}@example.com`;
  const created = await partner.post(completeProspect(partner.source, sourceProspectId, { email }));
  await runDueJobs(); // delivers prospect.created, evaluates eligibility (emits prospect.ready)
  await runDueJobs(); // delivers prospect.ready
  return { ...partner, id: created.body.prospect.id, sourceProspectId, email };
}

describe("console prospects (docs/decisions.md, Console: UI kit, prospects, overview, audit)", () => {
  it("searches across owners by owner, source_prospect_id, email (any case) and status, newest first, with keyset paging", async () => {
    const { owner, id, sourceProspectId, email, post, source } = await evaluatedProspect();
    const second = await post(completeProspect(source, unique("cp2")));
    const staff = await caller("account_manager");

    const bySpid = await staff.prospects.search({ source_prospect_id: sourceProspectId });
    expect(bySpid).toEqual([
      expect.objectContaining({
        id,
        owner_slug: owner.slug,
        source,
        source_prospect_id: sourceProspectId,
        email,
        status: "ready",
        eligible: true,
        building: "Building One",
        unit: "101",
      }),
    ]);
    expect((await staff.prospects.search({ email: email.toUpperCase() })).map((row) => row.id)).toEqual([id]);
    expect((await staff.prospects.search({ owner: owner.externalOrgId })).map((row) => row.id)).toEqual([second.body.prospect.id, id]);
    expect((await staff.prospects.search({ owner: owner.slug, status: "ready" })).map((row) => row.id)).toEqual([id]);

    const firstPage = await staff.prospects.search({ owner: owner.slug, limit: 1 });
    expect(firstPage.map((row) => row.id)).toEqual([second.body.prospect.id]);
    const nextPage = await staff.prospects.search({ owner: owner.slug, limit: 1, cursor: firstPage[0].id });
    expect(nextPage.map((row) => row.id)).toEqual([id]);
    expect(await staff.prospects.search({ source_prospect_id: "no-such-prospect" })).toEqual([]);
  });

  it("shows a prospect's state, eligibility, enrollment links and the deliveries about it", async () => {
    const { owner, id, sourceProspectId } = await evaluatedProspect();
    const detail = await (await caller("operator")).prospects.detail({ id });
    expect(detail).toMatchObject({
      id,
      public_id: `tpp_${id}`,
      owner_slug: owner.slug,
      source_prospect_id: sourceProspectId,
      status: "ready",
      eligibility: { eligible: true, sdi: [], cd: [] },
      building: { name: "Building One", external_id: "b1" },
      unit: { name: "101", external_id: "u1" },
      applications: [],
    });
    expect(detail.enrollment_url).toContain("/enroll/embedded/");
    expect(detail.hosted_enrollment_url).toContain("/enroll/expedited/");
    expect(detail.deliveries.map((d) => [d.event, d.status, d.attempts])).toEqual([
      ["prospect.ready", "delivered", 1],
      ["prospect.created", "delivered", 1],
    ]);
    expect(detail.deliveries[0].endpoint_name).toBe("prospects");
  });

  it("does not show another prospect's deliveries", async () => {
    const { id, post, source } = await evaluatedProspect();
    await post(completeProspect(source, unique("other")));
    await runDueJobs();
    const detail = await (await caller()).prospects.detail({ id });
    expect(detail.deliveries).toHaveLength(2);
  });

  it("answers not found for an unknown id", async () => {
    await expect((await caller()).prospects.detail({ id: 2_000_000_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("both roles read; an anonymous caller gets UNAUTHORIZED", async () => {
    const { id } = await evaluatedProspect();
    for (const role of ["operator", "account_manager"] as const) {
      await expect((await caller(role)).prospects.detail({ id })).resolves.toMatchObject({ id });
      await expect((await caller(role)).prospects.search({ limit: 1 })).resolves.toHaveLength(1);
    }
    await expect((await caller(null)).prospects.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await caller(null)).prospects.detail({ id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
