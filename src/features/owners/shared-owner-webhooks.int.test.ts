import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { emitEvent } from "../webhooks/emit";
import { WEBHOOK_MESSAGES } from "../webhooks/messages";
import { createProvider } from "../webhooks/providers";
import { managedOwnerWithTwoPartners, moveOutBody, type Partner, partnerOwnerWithTwoPartners } from "./shared-owner-test-helpers";

/** docs/decisions.md, "Webhooks" (partners sharing an owner are isolated): each partner sees only its own endpoints and deliveries, and receives only events about its records. */

const receiver = receiversOfThisFile();
const EVENTS = ["prospect.created", "prospect.ready", "move_out.initiated", "policy.created"];

type Body = { event: string; data: Record<string, Record<string, unknown>> };
const bodiesOf = (hook: { received: Array<{ rawBody: string }> }) => hook.received.map((request) => JSON.parse(request.rawBody) as Body);

async function deliveryOf(partner: Partner, endpointId: string) {
  const list = await partner.endpoints(`/${endpointId}/deliveries`);
  expect(list.status).toBe(200);
  return (list.body.deliveries as Array<{ id: string }>)[0].id;
}

describe.each([
  ["a managed owner with building grants", managedOwnerWithTwoPartners],
  ["a partner-created owner granted to a second partner", partnerOwnerWithTwoPartners],
])("partners sharing %s", (_, setup) => {
  it("reach only their own endpoints and deliveries: another partner's answers 404", async () => {
    const { a, b } = await setup();
    const hook = await receiver();
    const mine = await a.register(hook.url, EVENTS);
    const theirs = await b.register(hook.url, EVENTS);
    await a.postMoveOut(moveOutBody());
    const delivery = await deliveryOf(a, mine);

    const listed = await a.endpoints();
    expect((listed.body.endpoints as Array<{ id: string }>).map((endpoint) => endpoint.id)).toEqual([mine]);
    expect((await b.endpoints()).body.endpoints).toEqual([expect.objectContaining({ id: theirs })]);

    const notFound = { status: 404, body: { status_code: 404, error: WEBHOOK_MESSAGES.endpointNotFound } };
    expect(await b.endpoints(`/${mine}`, "PUT", { endpoint: { status: "disabled" } })).toMatchObject(notFound);
    expect(await b.endpoints(`/${mine}`, "DELETE")).toMatchObject(notFound);
    expect(await b.endpoints(`/${mine}/deliveries`)).toMatchObject(notFound);
    expect(await b.endpoints(`/${mine}/deliveries/${delivery}`)).toMatchObject(notFound);
    expect(await b.endpoints(`/${mine}/deliveries/${delivery}/retry`, "POST")).toMatchObject(notFound);
    // The same answer as an endpoint that never existed.
    expect((await b.endpoints("/we_nope", "DELETE")).body).toEqual((await b.endpoints(`/${mine}`, "DELETE")).body);

    const still = await a.endpoints(`/${mine}/deliveries/${delivery}`);
    expect(still.status).toBe(200);
    expect((await a.endpoints()).body.endpoints).toEqual([expect.objectContaining({ id: mine, status: "active" })]);
  });

  it("receive only events about their own records; owner-level events reach every partner", async () => {
    const { owner, a, b } = await setup();
    const hookA = await receiver();
    const hookB = await receiver();
    await a.register(hookA.url, EVENTS);
    await b.register(hookB.url, EVENTS);

    const prospectA = unique("pa");
    const prospectB = unique("pb");
    await a.postProspect(a.prospect(prospectA));
    await b.postProspect(b.prospect(prospectB));
    const moveOutA = await a.postMoveOut(moveOutBody());
    const moveOutB = await b.postMoveOut(moveOutBody());
    // An event about no partner's record (the policy family is not client-owned) goes to every subscribed endpoint.
    await emitEvent(await getDb(), { ownerId: owner.id, ownerSlug: owner.slug, event: "policy.created", data: { id: "policy_1" } });
    await runDueJobs();
    await runDueJobs();

    const seen = (hook: typeof hookA) =>
      bodiesOf(hook)
        .map(
          (body) =>
            `${body.event}:${body.data.third_party_prospect?.source_prospect_id ?? body.data.third_party_prospect?.id ?? body.data.move_out?.move_out_id ?? body.data.insurance_policy?.id}`,
        )
        .sort();
    expect(seen(hookA)).toEqual(
      [
        `prospect.created:${prospectA}`,
        `prospect.ready:${prospectA}`,
        `move_out.initiated:${moveOutA.body.move_out.move_out_id}`,
        "policy.created:policy_1",
      ].sort(),
    );
    expect(seen(hookB)).toEqual(
      [
        `prospect.created:${prospectB}`,
        `prospect.ready:${prospectB}`,
        `move_out.initiated:${moveOutB.body.move_out.move_out_id}`,
        "policy.created:policy_1",
      ].sort(),
    );
  });
});

describe("a provider subscription covering a shared owner", () => {
  it("receives only events about records of its own client", async () => {
    const { a, b } = await managedOwnerWithTwoPartners();
    const hook = await receiver();
    const code = unique("prov");
    await createProvider(await getDb(), { code, clientId: a.client.clientId });
    const created = await call("POST", `/api/partners/providers/${code}/webhooks/endpoints`, {
      token: a.token,
      body: { endpoint: { name: "Platform", destination_url: hook.url, events: ["prospect.created"] } },
    });
    expect(created.status).toBe(201);
    const prospectA = unique("pa");
    await a.postProspect(a.prospect(prospectA));
    await b.postProspect(b.prospect());
    await runDueJobs();
    expect(bodiesOf(hook).map((body) => body.data.third_party_prospect.id)).toEqual([prospectA]);
  });
});
