import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { newOwner } from "../../../test/factories";
import { call } from "../../../test/http";
import { runDueJobs } from "../../../test/jobs";
import { mergeOwners } from "../../owners/merge/merge";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { enrollmentUrl } from "../../prospects/enrollment-links";
import { completeProspect } from "../../prospects/prospect-test-helpers";
import { address } from "../../roster/roster-test-helpers";
import { framingHeadersFor } from "../framing/framing-headers";
import type { ResultView } from "./contract";
import { card, DETAILS, linkOf, okView, renter, viewOf } from "./flow-test-helpers";
import { chooseProduct, loadEnrollment, payEnrollment, submitDetails } from "./service";

const partner = enrollmentPartnersOfThisFile();
const PORTAL = "https://portal.survivor.example.org";

/** A second owner of the same partner, loaded and open for purchase, framed by PORTAL: the merge's survivor. */
async function survivorOf(p: Awaited<ReturnType<typeof partner>>) {
  const owner = await newOwner(p.client);
  const base = `/api/partners/${owner.slug}`;
  const token = p.token;
  await call("POST", `${base}/bank_accounts`, {
    token,
    body: [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "654321" }],
  });
  await call("POST", `${base}/properties`, { token, body: [{ external_system_id: "b1", building_name: "Survivor One", address: address("20 Main St") }] });
  await call("POST", `${base}/units`, { token, body: [{ external_system_id: "u1", property_external_id: "b1", name: "201" }] });
  const activated = await call("POST", "/api/partners/property_owners", {
    token,
    body: { external_org_id: owner.externalOrgId, purchase_flow_enabled: true, embedded_frame_ancestors: [PORTAL] },
  });
  expect(activated.status).toBe(200);
  return { owner, base, token };
}

describe("enrollment links after an owner merge (decisions §15: a merged duplicate's slug keeps resolving)", () => {
  it("links issued under the duplicate's slug open under the survivor, renters part-way through included, signature still checked", async () => {
    const p = await partner();
    const survivor = await survivorOf(p);

    // A renter who confirmed their details and chose an option, one who never opened the link, and
    // one whose source_prospect_id the survivor also holds (the merge renames the duplicate's).
    const midway = await renter(p, "midway");
    okView(await submitDetails(midway.link, DETAILS));
    await runDueJobs();
    expect(okView(await chooseProduct(midway.link, { productType: "security_deposit_insurance", cadence: "upfront" })).step).toBe("pay");
    const fresh = await renter(p, "fresh");
    const both = await renter(p, "both-1");
    const posted = await call("POST", `${survivor.base}/prospects`, {
      token: survivor.token,
      body: { prospect: completeProspect(p.source, "both-1", { first_name: "Sam" }) },
    });
    expect(posted.status).toBe(200);
    await runDueJobs();
    const survivorsOwn = linkOf(
      enrollmentUrl({ flow: "embedded", ownerSlug: survivor.owner.slug, source: p.source, sourceProspectId: "both-1", email: "Renter@Example.com" }),
    );
    expect(await viewOf(survivorsOwn)).toMatchObject({ step: "details", firstName: "Sam" });

    await mergeOwners(await getDb(), { cli: "test" }, { from: p.owner.slug, into: survivor.owner.slug });
    await runDueJobs();

    expect(await viewOf(midway.link)).toMatchObject({ step: "pay" });
    expect(await viewOf(fresh.link)).toMatchObject({ step: "details", firstName: "Rita" });
    // The duplicate's renter, not the survivor's namesake; the survivor's own link still opens its own.
    expect(await viewOf(both.link)).toMatchObject({ step: "details", firstName: "Rita" });
    expect(await viewOf(survivorsOwn)).toMatchObject({ step: "details", firstName: "Sam" });
    for (const forged of [
      { ...midway.link, sig: `${midway.link.sig?.slice(0, -1)}${midway.link.sig?.endsWith("A") ? "B" : "A"}` },
      { ...midway.link, owner: survivor.owner.slug },
      { ...fresh.link, id: "midway" },
      { ...fresh.link, email: "someone@example.com" },
    ]) {
      expect(await loadEnrollment(forged)).toEqual({ kind: "invalid" });
    }

    // The renter part-way through finishes under the survivor.
    const paid = okView(await payEnrollment(midway.link, card())) as ResultView;
    expect(paid.state).toBe("completed");

    // The duplicate's embedded pages are framed as the survivor's are.
    const survivorHeaders = await framingHeadersFor(`/enroll/embedded/${survivor.owner.slug}/${p.source}/fresh`);
    expect(survivorHeaders?.["Content-Security-Policy"]).toContain(PORTAL);
    expect(await framingHeadersFor(`/enroll/embedded/${p.owner.slug}/${p.source}/fresh`)).toEqual(survivorHeaders);
  });
});
