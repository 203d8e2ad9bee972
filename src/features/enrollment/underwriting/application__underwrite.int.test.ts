import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { call } from "../../../test/http";
import { runDueJobs, runDueJobsCounted } from "../../../test/jobs";
import { enrollmentPartnersOfThisFile, prospectRow } from "../../policies/policy-test-helpers";
import { REASONS } from "../../prospects/eligibility/reasons";
import { offeredProductsSchema } from "../../prospects/offered-products";
import { type Prospect, prospects } from "../../prospects/prospects.table";
import { startApplication } from "../applications/service";
import { loadEnrollment } from "../flow/service";
import { requestUnderwriting } from "./application__underwrite";
import { underwriteApplication } from "./application__underwrite.handler";
import { UNDERWRITING_REASONS } from "./messages";

const partner = enrollmentPartnersOfThisFile();

function paramsOf(url: string) {
  const parsed = new URL(url);
  const [, , flow, owner, source, id] = parsed.pathname.split("/").map(decodeURIComponent);
  const q = (name: string) => parsed.searchParams.get(name) ?? undefined;
  return { flow, owner, source, id, email: q("email") ?? "", sig: q("sig") ?? "", selected_product: q("selected_product"), cadence: q("cadence") };
}

/** Starts the renter's application, requests underwriting as the flow does, and runs the jobs. */
async function underwritten(prospect: Prospect) {
  const db = await getDb();
  const { application } = await db.transaction((tx) => startApplication(tx, prospect));
  await db.transaction((tx) => requestUnderwriting(tx, application));
  const counts = await runDueJobsCounted();
  return { application, counts };
}

const GUARANTEE_BUILDING = {
  guarantor_coverage: true,
  deposit_amount_cents: undefined,
  property: { external_system_id: "g-bldg", building_name: "Guarantee Court", address: { line_one: "5 Court St", city: "Austin", state: "TX", zip: "78701" } },
  unit: { external_system_id: "g-unit", name: "1" },
};

describe("application__underwrite (decisions §10 step (2); spec offered_products, percent_savings, rules 2)", () => {
  it("quoted: offered_products with signed product links, percent_savings, policy_application.quoted", async () => {
    const p = await partner();
    const { application, counts } = await underwritten(await p.ready("uw-q"));
    expect(counts.application__underwrite).toBe(1);
    const view = (await p.get("uw-q")).body.prospect;
    // Default rules, coverage $1,500: 17.5 % → 26,250; × 1.1 / 12 → 2,406; savings 82.5 (docs/underwriting.md).
    expect(view.percent_savings).toBe(82.5);
    const offers = offeredProductsSchema.parse(view.offered_products);
    expect(offers).toEqual([
      {
        product_type: "security_deposit_insurance",
        upfront_premium_cents: 26250,
        monthly_premium_cents: 2406,
        upfront_enrollment_url: expect.stringContaining("selected_product=security_deposit_insurance&cadence=upfront"),
        monthly_enrollment_url: expect.stringContaining("selected_product=security_deposit_insurance&cadence=monthly"),
      },
      { product_type: "cash_deposit", cash_deposit_amount_cents: 150000, enrollment_url: expect.stringContaining("selected_product=cash_deposit&sig=") },
    ]);
    expect(view.enrollment_url).not.toBeNull();
    expect(view).not.toHaveProperty("sdi_ineligibility_reasons");
    expect(p.delivered().map((d) => d.event)).toEqual(["policy_application.created", "policy_application.quoted"]);
    expect(p.delivered()[1].data.policy_application).toMatchObject({ id: `pa_${application.id}`, status: "created" });

    const [sdi, cd] = offers as [
      Extract<(typeof offers)[number], { product_type: "security_deposit_insurance" }>,
      Extract<(typeof offers)[number], { product_type: "cash_deposit" }>,
    ];
    const upfront = paramsOf(String(sdi.upfront_enrollment_url));
    expect(await loadEnrollment(upfront)).toMatchObject({
      kind: "view",
      view: { step: "choose", selected: { productType: "security_deposit_insurance", cadence: "upfront" } },
    });
    expect(await loadEnrollment(paramsOf(String(sdi.monthly_enrollment_url)))).toMatchObject({ kind: "view", view: { selected: { cadence: "monthly" } } });
    const cash = paramsOf(String(cd.enrollment_url));
    const cashView = await loadEnrollment(cash);
    expect(cashView).toMatchObject({ kind: "view", view: { step: "choose", selected: { productType: "cash_deposit" } } });
    expect(cashView.kind === "view" && cashView.view.step === "choose" && cashView.view.selected).not.toHaveProperty("cadence");
    // The signature covers the preselection: altered, added or dropped, the link is refused.
    for (const altered of [
      { ...upfront, cadence: "monthly" },
      { ...upfront, selected_product: "cash_deposit" },
      { ...upfront, cadence: undefined },
      { ...upfront, selected_product: undefined, cadence: undefined },
      { ...cash, cadence: "upfront" },
      { ...cash, selected_product: "security_deposit_insurance" },
      { ...cash, selected_product: "renter_guarantee_insurance" },
    ]) {
      expect(await loadEnrollment(altered)).toEqual({ kind: "invalid" });
    }
    // A plain link's signature does not open a product link.
    const plain = paramsOf(String(view.enrollment_url));
    expect(await loadEnrollment({ ...plain, selected_product: "cash_deposit" })).toEqual({ kind: "invalid" });
  });

  it("is idempotent: run twice (job and direct), one quoted event, stored once", async () => {
    const p = await partner();
    const prospect = await p.ready("uw-idem");
    const { application } = await underwritten(prospect);
    const db = await getDb();
    const before = await prospectRow(p.owner.id, "uw-idem");
    await db.transaction((tx) => requestUnderwriting(tx, application));
    await runDueJobs();
    await db.transaction((tx) => underwriteApplication(tx, application.id));
    await runDueJobs();
    expect(p.delivered().filter((d) => d.event === "policy_application.quoted")).toHaveLength(1);
    const after = await prospectRow(p.owner.id, "uw-idem");
    expect(after.underwriting).toEqual(before.underwriting);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("+decline in staging: declined, both URLs null, reasons shown, policy_application.declined delivered", async () => {
    const p = await partner();
    await underwritten(await p.ready("uw-d", { email: "Rita+Decline@example.com" }));
    const view = (await p.get("uw-d")).body.prospect;
    expect(view).toMatchObject({
      enrollment_url: null,
      hosted_enrollment_url: null,
      offered_products: [],
      percent_savings: null,
      sdi_ineligibility_reasons: [UNDERWRITING_REASONS.declinedByUnderwriting],
      cd_ineligibility_reasons: [UNDERWRITING_REASONS.declinedByUnderwriting],
    });
    expect(p.delivered().map((d) => d.event)).toEqual(["policy_application.created", "policy_application.declined"]);
    expect(p.hook.url.startsWith("https://")).toBe(true);
  });

  it("keeps the underwriting outcome across a later write and its re-evaluation", async () => {
    const p = await partner();
    await underwritten(await p.ready("uw-keep", { email: "Rita+Decline@example.com" }));
    await p.ready("uw-keep", { email: "Rita+Decline@example.com", phone: "5125550199" });
    const view = (await p.get("uw-keep")).body.prospect;
    expect(view).toMatchObject({
      status: "ready",
      phone: "5125550199",
      enrollment_url: null,
      cd_ineligibility_reasons: [UNDERWRITING_REASONS.declinedByUnderwriting],
    });
  });

  it("insurance declined alone (coverage above the ceiling): only the cash deposit entry, capped", async () => {
    const p = await partner();
    await call("POST", "/api/partners/property_owners", {
      token: p.token,
      body: { external_org_id: p.owner.externalOrgId, max_coverage_amount_cents: 100000 },
    });
    await underwritten(await p.ready("uw-ceil"));
    const view = (await p.get("uw-ceil")).body.prospect;
    expect(view.offered_products).toEqual([
      { product_type: "cash_deposit", cash_deposit_amount_cents: 100000, enrollment_url: expect.stringContaining("selected_product=cash_deposit") },
    ]);
    expect(view.percent_savings).toBeNull();
    expect(view.enrollment_url).not.toBeNull();
    // Eligibility and underwriting give the same string: shown once.
    expect(view.sdi_ineligibility_reasons).toEqual([REASONS.coverageAboveMaximum]);
    expect(view).not.toHaveProperty("cd_ineligibility_reasons");
    expect(p.delivered().map((d) => d.event)).toEqual(["policy_application.created", "policy_application.quoted"]);
  });

  it("guarantee prospect: quoted with the guarantee, offered_products and percent_savings empty", async () => {
    const p = await partner({ guarantorCapable: true });
    const prospect = await p.ready("uw-g", GUARANTEE_BUILDING);
    expect(prospect.eligibility?.eligible).toBe(true);
    await underwritten(prospect);
    const view = (await p.get("uw-g")).body.prospect;
    expect(view).toMatchObject({ offered_products: [], percent_savings: null, rg_eligibility_status: "eligible", rg_ineligibility_reasons: [] });
    expect(view.enrollment_url).not.toBeNull();
    expect(view.sdi_ineligibility_reasons).toEqual([REASONS.guaranteeExclusive]);
    expect(p.delivered().map((d) => d.event)).toEqual(["policy_application.created", "policy_application.quoted"]);
    const db = await getDb();
    const [row] = await db.select().from(prospects).where(eq(prospects.id, prospect.id));
    expect(row.underwriting).toMatchObject({ status: "quoted", offeredProducts: [], guarantee: { productVersion: "2025.12.01" } });
  });

  it("does nothing for an application that is gone", async () => {
    const db = await getDb();
    expect(await db.transaction((tx) => underwriteApplication(tx, 987654321))).toBeUndefined();
  });
});
