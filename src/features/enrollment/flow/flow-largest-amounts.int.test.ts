import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { call } from "../../../test/http";
import { runDueJobs } from "../../../test/jobs";
import { cashDeposits, policies } from "../../policies/policies.table";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { largestDocumentedRent } from "../../prospects/rent-bound-test-helpers";
import { MAX_COVERAGE_MULTIPLIER } from "../../roster/api/properties.types";
import { address } from "../../roster/roster-test-helpers";
import type { ChooseView, PayView, ResultView } from "./contract";
import { card, DETAILS, okView, renter, viewOf } from "./flow-test-helpers";
import { chooseProduct, payEnrollment, submitDetails } from "./service";

const partner = enrollmentPartnersOfThisFile();
const hundredfold = { type: "multiplier", value: MAX_COVERAGE_MULTIPLIER };

/**
 * The largest amounts a partner can cause (docs/decisions.md, Hardening: limits): the largest
 * accepted rent on a building of the largest multiplier, carried through eligibility, underwriting,
 * payment and issuance, where every amount is an `integer` column.
 */
describe("enrollment at the largest accepted rent and multiplier", () => {
  it("a guarantee prospect is quoted, pays and is issued its policy", async () => {
    const p = await partner({ guarantorCapable: true });
    const rent = await largestDocumentedRent();
    await call("POST", `${p.base}/properties`, {
      token: p.token,
      body: [{ external_system_id: "b100", building_name: "Hundredfold", address: address("100 Max St"), default_coverage: hundredfold }],
    });
    await call("POST", `${p.base}/units`, { token: p.token, body: [{ external_system_id: "u100", property_external_id: "b100", name: "1" }] });
    const { prospect, link } = await renter(p, "max-guarantee", {
      guarantor_coverage: true,
      deposit_amount_cents: undefined,
      monthly_rent_cents: rent,
      yearly_income: 1_000_000_000,
      property: { external_system_id: "b100" },
      unit: { external_system_id: "u100" },
    });
    expect(prospect).toMatchObject({ status: "ready", effectiveCoverageAmountCents: rent * MAX_COVERAGE_MULTIPLIER });
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const offer = ((await viewOf(link)) as ChooseView).offers[0];
    expect(offer).toMatchObject({ productType: "renter_guarantee_insurance", coverageAmountCents: rent * MAX_COVERAGE_MULTIPLIER });
    const pay = okView(await chooseProduct(link, { productType: "renter_guarantee_insurance", cadence: "monthly" })) as PayView;
    const done = okView(await payEnrollment(link, card())) as ResultView;
    expect(done).toMatchObject({ state: "completed", coverageAmountCents: rent * MAX_COVERAGE_MULTIPLIER });
    const [policy] = await (await getDb())
      .select()
      .from(policies)
      .where(eq(policies.policyNumber, done.policyNumber ?? ""));
    expect(policy).toMatchObject({ coverageAmountCents: rent * MAX_COVERAGE_MULTIPLIER, premiumCents: pay.amountDueCents });
  });

  it("a PMS-synced prospect's cash deposit of rent × 100 is charged and recorded", async () => {
    const p = await partner();
    const rent = await largestDocumentedRent();
    await call("POST", `${p.base}/properties`, {
      token: p.token,
      body: [
        {
          external_system_id: "b-pms",
          building_name: "Synced",
          address: address("40 Elm St"),
          pms_type: "pms_one",
          pms_property_id: "PP-MAX",
          default_coverage: hundredfold,
        },
      ],
    });
    await call("POST", `${p.base}/units`, {
      token: p.token,
      body: [{ external_system_id: "u-pms", property_external_id: "b-pms", name: "1", pms_unit_id: "PU-MAX" }],
    });
    const { prospect, link } = await renter(p, "max-cash", {
      property: undefined,
      unit: undefined,
      pms_type: "pms_one",
      pms_property_id: "PP-MAX",
      pms_unit_id: "PU-MAX",
      monthly_rent_cents: rent,
      yearly_income: 1_000_000_000,
    });
    expect(prospect).toMatchObject({ status: "ready", effectiveCoverageAmountCents: rent * MAX_COVERAGE_MULTIPLIER });
    okView(await submitDetails(link, DETAILS));
    await runDueJobs();
    const choose = (await viewOf(link)) as ChooseView;
    expect(choose.offers.map((offer) => offer.productType)).toEqual(["security_deposit_insurance", "cash_deposit"]);
    okView(await chooseProduct(link, { productType: "cash_deposit", cadence: "upfront" }));
    const done = okView(await payEnrollment(link, card())) as ResultView;
    expect(done).toMatchObject({ state: "completed", productType: "cash_deposit", coverageAmountCents: rent * MAX_COVERAGE_MULTIPLIER });
    const [deposit] = await (await getDb()).select().from(cashDeposits).where(eq(cashDeposits.prospectId, prospect.id));
    expect(deposit.amountCents).toBe(rent * MAX_COVERAGE_MULTIPLIER);
  });
});
