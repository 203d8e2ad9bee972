import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { AppError } from "../../../server/errors";
import { runDueJobs } from "../../../test/jobs";
import { defaultOutcome, enrollmentPartnersOfThisFile, prospectRow } from "../../policies/policy-test-helpers";
import { applications } from "./applications.table";
import { APPLICATION_MESSAGES } from "./messages";
import { recordUnderwriting, startApplication, submitApplication } from "./service";

const partner = enrollmentPartnersOfThisFile();

const eventsOf = (bodies: Array<{ event: string }>) => bodies.map((b) => b.event).sort();

describe("applications (decisions §10 steps (1)-(3); spec Policy application payload)", () => {
  it("starts once per prospect: policy_application.created once, the same open application answered again", async () => {
    const p = await partner();
    const prospect = await p.ready("app-1", { pms_type: "pms_one", pms_property_id: "PP", pms_unit_id: "UU", pms_prospect_id: "RR" });
    const db = await getDb();
    const first = await db.transaction((tx) => startApplication(tx, prospect));
    const again = await db.transaction((tx) => startApplication(tx, prospect));
    expect(first.created).toBe(true);
    expect(again).toEqual({ application: first.application, created: false });
    expect(first.application).toMatchObject({ status: "created", step: "details", productType: null, outcome: null });
    await runDueJobs();
    expect(p.delivered()).toEqual([
      {
        event: "policy_application.created",
        property_owner_slug: p.owner.slug,
        data: {
          policy_application: {
            id: `pa_${first.application.id}`,
            status: "created",
            pms_type: "pms_one",
            pms_property_id: "PP",
            pms_unit_id: "UU",
            pms_resident_id: "RR",
            source_prospect_id: "app-1",
          },
        },
      },
    ]);
  });

  it("starts concurrently without a second application (unique open application per prospect)", async () => {
    const p = await partner();
    const prospect = await p.ready("app-race");
    const db = await getDb();
    const results = await Promise.all([1, 2, 3].map(() => db.transaction((tx) => startApplication(tx, prospect))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.application.id)).size).toBe(1);
    expect(await db.select().from(applications).where(eq(applications.prospectId, prospect.id))).toHaveLength(1);
  });

  it("keeps a product link's preselection and names it in the payload", async () => {
    const p = await partner();
    const prospect = await p.ready("app-pre");
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect, { productType: "security_deposit_insurance", cadence: "monthly" }));
    expect(application).toMatchObject({ productType: "security_deposit_insurance", cadence: "monthly" });
    await runDueJobs();
    expect(p.delivered()[0].data.policy_application).toMatchObject({ product_type: "security_deposit_insurance" });
    expect(p.delivered()[0].data.policy_application).not.toHaveProperty("product_version");
  });

  it("refuses a prospect that is not ready and eligible, emitting nothing", async () => {
    const p = await partner({ activate: false });
    const prospect = await p.ready("app-blocked");
    const db = await getDb();
    const attempt = db.transaction((tx) => startApplication(tx, prospect));
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ kind: "conflict", message: APPLICATION_MESSAGES.prospectNotEligible });
    await runDueJobs();
    expect(p.delivered()).toEqual([]);
  });

  it("records a quote → policy_application.quoted, status still created, percent_savings on the prospect", async () => {
    const p = await partner();
    const prospect = await p.ready("app-q");
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    const outcome = defaultOutcome(prospect);
    expect(outcome.status).toBe("quoted");
    const quoted = await db.transaction((tx) => recordUnderwriting(tx, application, outcome));
    expect(quoted).toMatchObject({ status: "created", outcome: "quoted", step: "choose", quote: outcome });
    // Recording the same outcome again is not a new event.
    await db.transaction((tx) => recordUnderwriting(tx, application, outcome));
    const savings = outcome.status === "quoted" ? outcome.percentSavings : undefined;
    expect(savings).toBeGreaterThan(0);
    expect((await prospectRow(p.owner.id, "app-q")).percentSavings).toBe(savings);
    await runDueJobs();
    expect(eventsOf(p.delivered())).toEqual(["policy_application.created", "policy_application.quoted"]);
    const payload = p.delivered().find((b) => b.event === "policy_application.quoted")?.data.policy_application;
    expect(payload).toEqual({ id: `pa_${application.id}`, status: "created", source_prospect_id: "app-q" });
  });

  it("records a decline → policy_application.declined with no reason in the payload", async () => {
    const p = await partner();
    const prospect = await p.ready("app-d", { email: "rita+decline@example.com" });
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    const outcome = defaultOutcome(prospect);
    expect(outcome.status).toBe("declined");
    const declined = await db.transaction((tx) => recordUnderwriting(tx, application, outcome));
    expect(declined).toMatchObject({ status: "created", outcome: "declined", step: "result" });
    await runDueJobs();
    const body = p.delivered().find((b) => b.event === "policy_application.declined");
    expect(body?.data).toEqual({ policy_application: { id: `pa_${application.id}`, status: "created", source_prospect_id: "app-d" } });
  });

  it("names the guarantee product and version once quoted, never percent_savings", async () => {
    const p = await partner({ guarantorCapable: true });
    const prospect = await p.ready("app-g", { guarantor_coverage: true, deposit_amount_cents: undefined });
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    const outcome = defaultOutcome(prospect);
    expect(outcome).toMatchObject({ status: "quoted", guarantee: { productVersion: "2025.12.01" } });
    await db.transaction((tx) => recordUnderwriting(tx, application, outcome));
    expect((await prospectRow(p.owner.id, "app-g")).percentSavings).toBeNull();
    await runDueJobs();
    const created = p.delivered().find((b) => b.event === "policy_application.created")?.data.policy_application;
    const quoted = p.delivered().find((b) => b.event === "policy_application.quoted")?.data.policy_application;
    expect(created).not.toHaveProperty("product_type");
    expect(quoted).toMatchObject({ product_type: "renter_guarantee_insurance", product_version: "2025.12.01" });
  });

  it("submits an offered product → policy_application.submitted and application_submitted on the prospect", async () => {
    const p = await partner();
    const prospect = await p.ready("app-s");
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    await db.transaction((tx) => recordUnderwriting(tx, application, defaultOutcome(prospect)));
    const submitted = await db.transaction((tx) => submitApplication(tx, application, { productType: "security_deposit_insurance", cadence: "monthly" }));
    expect(submitted).toMatchObject({ productType: "security_deposit_insurance", cadence: "monthly", step: "pay", submittedAt: expect.any(Date) });
    // The same choice again is not a new event.
    await db.transaction((tx) => submitApplication(tx, application, { productType: "security_deposit_insurance", cadence: "monthly" }));
    expect((await p.get("app-s")).body.prospect.application_submitted).toBe(true);
    await runDueJobs();
    const bodies = p.delivered().filter((b) => b.event === "policy_application.submitted");
    expect(bodies.map((b) => b.data)).toEqual([
      { policy_application: { id: `pa_${application.id}`, status: "created", source_prospect_id: "app-s", product_type: "security_deposit_insurance" } },
    ]);
  });

  it("refuses to submit before a quote, a product not offered, or insurance without a cadence", async () => {
    const p = await partner();
    const prospect = await p.ready("app-x");
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    const submit = (choice: Parameters<typeof submitApplication>[2]) => db.transaction((tx) => submitApplication(tx, application, choice));
    await expect(submit({ productType: "cash_deposit" })).rejects.toMatchObject({ kind: "conflict", message: APPLICATION_MESSAGES.notQuoted });
    await db.transaction((tx) => recordUnderwriting(tx, application, defaultOutcome(prospect)));
    await expect(submit({ productType: "renter_guarantee_insurance", cadence: "upfront" })).rejects.toMatchObject({ kind: "invalid" });
    await expect(submit({ productType: "security_deposit_insurance" })).rejects.toMatchObject({ message: APPLICATION_MESSAGES.cadenceRequired });
    await expect(submit({ productType: "cash_deposit", cadence: "monthly" })).rejects.toMatchObject({ message: APPLICATION_MESSAGES.cadenceNotAllowed });
    expect((await p.get("app-x")).body.prospect.application_submitted).toBe(false);
  });
});
