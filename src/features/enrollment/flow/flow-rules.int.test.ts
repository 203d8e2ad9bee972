import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { resetConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { queuedJobs, runDueJobs } from "../../../test/jobs";
import { propertyOwners } from "../../owners/owners.table";
import { enrollmentPartnersOfThisFile, prospectRow } from "../../policies/policy-test-helpers";
import { prospects } from "../../prospects/prospects.table";
import { sources } from "../../prospects/sources.table";
import { properties } from "../../roster/roster.table";
import { addFrameOrigin } from "../frame-origins";
import type { DetailsView, ResultView } from "./contract";
import { applicationsOf, card, DETAILS, okView, renter, viewOf } from "./flow-test-helpers";
import { BLOCKED_REASONS, RESULT_MESSAGES } from "./messages";
import { chooseProduct, loadEnrollment, payEnrollment, submitDetails } from "./service";

const partner = enrollmentPartnersOfThisFile();

describe("enrollment flow: links, resume, validation and terminal states (decisions §10)", () => {
  it("an invalid link shows nothing and changes nothing", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "rules-invalid");
    for (const forged of [
      { ...link, sig: `${link.sig?.slice(0, -1)}${link.sig?.endsWith("A") ? "B" : "A"}` },
      { ...link, sig: undefined },
      { ...link, email: "other@example.com" },
      { ...link, id: "rules-other" },
      { ...link, flow: "popup" },
      { ...link, selected_product: "cash_deposit" },
      { ...link, cadence: "weekly" },
    ]) {
      expect(await loadEnrollment(forged)).toEqual({ kind: "invalid" });
      await expect(submitDetails(forged, DETAILS)).rejects.toMatchObject({ kind: "not_found" });
      await expect(payEnrollment(forged, card())).rejects.toMatchObject({ kind: "not_found" });
    }
    expect(await applicationsOf(prospect)).toEqual([]);
    await runDueJobs();
    expect(p.delivered()).toEqual([]);
  });

  it("field errors are keyed by the input's names, keep what was typed and write nothing", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "rules-fields");
    const result = await submitDetails(link, { firstName: "", lastName: "Renter", phone: "555-01", birthdate: "2015-01-01", acceptDisclosures: false });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fields).sort()).toEqual(["acceptDisclosures", "birthdate", "firstName", "phone"]);
    expect((result.view as DetailsView).values).toMatchObject({ firstName: "", phone: "555-01", birthdate: "2015-01-01", email: "Renter@Example.com" });
    expect(await applicationsOf(prospect)).toEqual([]);
    expect(await queuedJobs("application__underwrite")).toEqual([]);
    await runDueJobs();
    expect(p.delivered()).toEqual([]);
  });

  it("resumes on the step reached with what was entered; the partner's prospect is left as sent", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "rules-resume");
    const entered = { ...DETAILS, firstName: "Rachel", phone: "(512) 555-9999", birthdate: "1985-06-15" };
    expect(okView(await submitDetails(link, entered))).toMatchObject({ step: "quote", firstName: "Rachel" });
    const again = await viewOf(link);
    expect(again).toEqual(await viewOf(link));
    expect(again).toMatchObject({ step: "quote", firstName: "Rachel" });
    const [application] = await applicationsOf(prospect);
    expect(application.applicant).toEqual({ firstName: "Rachel", lastName: "Renter", phone: "5125559999", birthdate: "1985-06-15" });
    expect(application.disclosuresAcceptedAt).toBeInstanceOf(Date);
    expect(await prospectRow(p.owner.id, "rules-resume")).toMatchObject({ firstName: "Rita", phone: "5125550123", birthdate: "1990-04-02" });
    await runDueJobs();
    expect(await viewOf(link)).toMatchObject({ step: "choose", firstName: "Rachel" });
    // The hosted link of the same prospect lands on the same step (any tab, any device).
    const hosted = await renter(p, "rules-resume", {}, { flow: "expedited" });
    expect(await viewOf(hosted.link)).toMatchObject({ step: "choose", flow: "expedited" });
  });

  it("a double submit makes one application, one created event and one underwriting job", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "rules-double");
    const [first, second] = await Promise.all([submitDetails(link, DETAILS), submitDetails(link, DETAILS)]);
    expect(okView(first).step).toBe("quote");
    expect(okView(second).step).toBe("quote");
    expect(okView(await submitDetails(link, DETAILS)).step).toBe("quote");
    expect(await applicationsOf(prospect)).toHaveLength(1);
    expect(await queuedJobs("application__underwrite")).toHaveLength(1);
    await runDueJobs();
    expect(
      p
        .delivered()
        .map((d) => d.event)
        .sort(),
    ).toEqual(["policy_application.created", "policy_application.quoted"]);
  });

  it("+decline is declined by underwriting: the result says so and choosing is refused", async () => {
    const p = await partner();
    const { link } = await renter(p, "rules-decline", { email: "rita+decline@example.com" });
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    expect(await viewOf(link)).toMatchObject({ step: "result", state: "declined", message: RESULT_MESSAGES.declined, redirectTo: null });
    await expect(chooseProduct(link, { productType: "cash_deposit" })).rejects.toMatchObject({ kind: "conflict" });
    expect(
      p
        .delivered()
        .map((d) => d.event)
        .sort(),
    ).toEqual(["policy_application.created", "policy_application.declined"]);
  });

  it("+blocked ends at the identity check (recorded: reopening shows blocked); production ignores it", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "rules-blocked", { email: "rita+blocked@example.com" });
    const blocked = okView(await submitDetails(link, DETAILS));
    expect(blocked).toMatchObject({ step: "result", state: "blocked", message: RESULT_MESSAGES.blocked.identity_check_failed });
    expect(await viewOf(link)).toMatchObject({ state: "blocked" });
    expect(await applicationsOf(prospect)).toMatchObject([{ blockedReason: BLOCKED_REASONS.identityCheckFailed, step: "result" }]);
    expect(await queuedJobs("application__underwrite")).toEqual([]);

    const other = await renter(p, "rules-blocked-prod", { email: "rita+blocked@example.com" });
    process.env.APP_ENV = "production";
    resetConfig();
    try {
      expect(okView(await submitDetails(other.link, DETAILS))).toMatchObject({ step: "quote", staging: false });
    } finally {
      process.env.APP_ENV = "staging";
      resetConfig();
    }
  });

  it("an inactive building or an owner's purchase flow turned off blocks the renter, whatever the step", async () => {
    const p = await partner();
    const db = await getDb();
    const building = await renter(p, "rules-inactive");
    okView(await submitDetails(building.link, DETAILS));
    await runDueJobs();
    expect((await viewOf(building.link)).step).toBe("choose");
    await db.update(properties).set({ active: false }).where(eq(properties.ownerId, p.owner.id));
    expect(await viewOf(building.link)).toMatchObject({ step: "result", state: "blocked", message: RESULT_MESSAGES.blocked.building_inactive });
    await expect(chooseProduct(building.link, { productType: "cash_deposit" })).rejects.toMatchObject({ kind: "conflict" });
    await db.update(properties).set({ active: true }).where(eq(properties.ownerId, p.owner.id));

    const flowOff = await renter(p, "rules-flow-off");
    await db.update(propertyOwners).set({ purchaseFlowEnabled: false }).where(eq(propertyOwners.id, p.owner.id));
    expect(await viewOf(flowOff.link)).toMatchObject({ step: "result", state: "blocked", message: RESULT_MESSAGES.blocked.purchase_flow_off });
    await expect(submitDetails(flowOff.link, DETAILS)).rejects.toMatchObject({ kind: "conflict" });
    expect(await applicationsOf(flowOff.prospect)).toEqual([]);
  });

  it("a renter already covered for the unit sees the completed result on reopening", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "rules-covered");
    await (await getDb())
      .update(prospects)
      .set({ latestCoverage: { type: "cash_deposit", coverage_amount_cents: 150000 } })
      .where(eq(prospects.id, prospect.id));
    expect(await viewOf(link)).toMatchObject({ step: "result", state: "completed", productType: "cash_deposit", coverageAmountCents: 150000 });
  });

  it("the expedited result redirects only to the source's redirect domains; the embedded one lists its message origins", async () => {
    const p = await partner();
    const db = await getDb();
    await db
      .update(sources)
      .set({ redirectDomains: ["apply.example.com"] })
      .where(eq(sources.code, p.source));
    await db
      .update(propertyOwners)
      .set({ embeddedFrameAncestors: ["https://Portal.Example.com", "not an origin"] })
      .where(eq(propertyOwners.id, p.owner.id));
    await addFrameOrigin(db, "https://operator.example.net");

    const hosted = await renter(p, "rules-redirect", { email: "rita+decline@example.com" }, { flow: "expedited" });
    okView(await submitDetails(hosted.link, DETAILS));
    await runDueJobs();
    const allowed = (await viewOf({ ...hosted.link, redirect_url: "https://apply.example.com/back?ref=1" })) as ResultView;
    expect(allowed).toMatchObject({ state: "declined", redirectTo: "https://apply.example.com/back?ref=1&status=declined", messageOrigins: [] });
    expect(await viewOf({ ...hosted.link, redirect_url: "https://evil.example.org/" })).toMatchObject({ redirectTo: null });
    expect(await viewOf(hosted.link)).toMatchObject({ redirectTo: null });

    const embedded = await renter(p, "rules-redirect", { email: "rita+decline@example.com" });
    const framed = (await viewOf({ ...embedded.link, redirect_url: "https://apply.example.com/back" })) as ResultView;
    expect(framed.redirectTo).toBeNull();
    expect(framed.messageOrigins).toEqual(expect.arrayContaining(["https://operator.example.net", "https://portal.example.com"]));
    expect(framed.messageOrigins).not.toContain("not an origin");
  });
});
