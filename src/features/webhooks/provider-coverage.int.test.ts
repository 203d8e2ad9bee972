import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { address } from "../roster/roster-test-helpers";
import { createProvider } from "./providers";

const receiver = receiversOfThisFile();

const moveOut = (propertyExternalId: string) => ({
  external_id: unique("mo"),
  move_out_date: "2026-12-31",
  property: { address_line_one: "10 Main St", address_city: "Austin", address_state: "TX", address_zip: "78701", external_id: propertyExternalId },
  residents: [{ role: "primary", name: "Rita Renter" }],
});

/** Events a receiver got, as `event:subject` (the prospect's source id, or the move-out's property). */
const seen = (hook: Awaited<ReturnType<typeof receiver>>) =>
  hook.received
    .map((r) => JSON.parse(r.rawBody) as { event: string; data: Record<string, Record<string, unknown>> })
    .map(({ event, data }) => `${event}:${data.third_party_prospect?.id ?? data.move_out?.external_id}`)
    .sort();

describe("provider coverage by building (spec Delivery mechanics 6: 'or only configured properties')", () => {
  it("a subscription covering a building gets the events of its records only; owner-level events need the owner", async () => {
    const partner = await prospectPartner();
    await call("POST", `${partner.base}/properties`, {
      token: partner.token,
      body: [{ external_system_id: "b2", building_name: "Building Two", address: address("20 Oak St") }],
    });
    await call("POST", `${partner.base}/units`, { token: partner.token, body: [{ external_system_id: "u2", property_external_id: "b2", name: "201" }] });
    const db = await getDb();
    const byBuilding = unique("bldg");
    const byOwner = unique("own");
    await createProvider(db, { code: byBuilding, clientId: partner.client.clientId, buildings: [{ ownerSlug: partner.owner.slug, externalId: "b1" }] });
    await createProvider(db, { code: byOwner, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    const hooks = { byBuilding: await receiver(), byOwner: await receiver() };
    for (const [code, hook] of [
      [byBuilding, hooks.byBuilding],
      [byOwner, hooks.byOwner],
    ] as const) {
      const created = await call("POST", `/api/partners/providers/${code}/webhooks/endpoints`, {
        token: partner.token,
        body: { endpoint: { name: code, destination_url: hook.url, events: ["prospect.created", "move_out.initiated"] } },
      });
      expect(created.status).toBe(201);
    }

    const inB1 = unique("p1");
    const inB2 = unique("p2");
    const unresolved = unique("p0");
    expect((await partner.post(completeProspect(partner.source, inB1))).status).toBe(200);
    expect(
      (await partner.post(completeProspect(partner.source, inB2, { property: { external_system_id: "b2" }, unit: { external_system_id: "u2" } }))).status,
    ).toBe(200);
    expect((await partner.post(completeProspect(partner.source, unresolved, { property: undefined, unit: undefined }))).status).toBe(200);
    const moveOuts = `${partner.base}/move_outs`;
    const moveOutIn: Record<string, string> = {};
    for (const building of ["b1", "b2", "never-registered"]) {
      const posted = await call<{ move_out: { external_id: string } }>("POST", moveOuts, { token: partner.token, body: moveOut(building) });
      expect(posted.status).toBe(201);
      moveOutIn[building] = posted.body.move_out.external_id;
    }
    await runDueJobs();

    // A move-out stands alone: it belongs to the building whose external_system_id its property names.
    expect(seen(hooks.byBuilding)).toEqual([`move_out.initiated:${moveOutIn.b1}`, `prospect.created:${inB1}`]);
    expect(seen(hooks.byOwner)).toEqual(
      [...Object.values(moveOutIn).map((id) => `move_out.initiated:${id}`), ...[inB1, inB2, unresolved].map((id) => `prospect.created:${id}`)].sort(),
    );
  });

  it("provider create refuses a building that is not under the named owner, and writes nothing", async () => {
    const partner = await prospectPartner({ activate: false });
    const code = unique("none");
    await expect(
      createProvider(await getDb(), { code, clientId: partner.client.clientId, buildings: [{ ownerSlug: partner.owner.slug, externalId: "nope" }] }),
    ).rejects.toMatchObject({ kind: "not_found", message: `No building nope under owner ${partner.owner.slug}` });
    const answer = await call("GET", `/api/partners/providers/${code}/webhooks/endpoints`, { token: partner.token });
    expect(answer.status).toBe(404);
  });
});
