import { describe, expect, it } from "vitest";
import type { Prospect } from "../../prospects/prospects.table";
import type { Application } from "./applications.table";
import { policyApplicationPayload } from "./payload";
import { isOffered } from "./service";

const application = {
  id: 12,
  prospectId: 3,
  ownerId: 1,
  status: "created",
  productType: null,
  productVersion: null,
  cadence: null,
  userId: null,
  quote: null,
  outcome: null,
  submittedAt: null,
  step: "details",
  applicant: null,
  disclosuresAcceptedAt: null,
  blockedReason: null,
  paymentChargeId: null,
  paymentAmountCents: null,
  paymentLast4: null,
  paidAt: null,
  paymentKey: null,
  paymentKeyAmountCents: null,
  createdAt: new Date(),
  updatedAt: new Date(),
} satisfies Application;
const prospect = {
  sourceProspectId: "sp-3",
  guarantorCoverage: false,
  pmsType: null,
  pmsPropertyId: null,
  pmsUnitId: null,
  pmsProspectId: null,
} as Prospect;

describe("policyApplicationPayload (spec Policy application payload)", () => {
  it("omits product_type until a product is chosen, and never sends null", () => {
    expect(policyApplicationPayload(application, prospect)).toEqual({ id: "pa_12", status: "created", source_prospect_id: "sp-3" });
  });

  it("names the chosen product, without a version for deposit products", () => {
    const payload = policyApplicationPayload({ ...application, productType: "cash_deposit", productVersion: "2025.12.01" }, prospect);
    expect(payload).toMatchObject({ product_type: "cash_deposit" });
    expect(payload).not.toHaveProperty("product_version");
  });

  it("names the guarantee with its version only on a guarantor-coverage application with a version set", () => {
    const guarantee = { ...application, productType: "renter_guarantee_insurance" as const, productVersion: "2025.12.01" };
    expect(policyApplicationPayload(guarantee, { ...prospect, guarantorCoverage: true })).toMatchObject({
      product_type: "renter_guarantee_insurance",
      product_version: "2025.12.01",
    });
    expect(policyApplicationPayload(application, { ...prospect, guarantorCoverage: true })).not.toHaveProperty("product_type");
  });

  it("carries the record status and the prospect's PMS identifiers (pms_prospect_id as the resident id)", () => {
    const payload = policyApplicationPayload(
      { ...application, status: "canceled" },
      { ...prospect, pmsType: "pms_one", pmsPropertyId: "P", pmsUnitId: "U", pmsProspectId: "R" },
    );
    expect(payload).toEqual({
      id: "pa_12",
      status: "canceled",
      pms_type: "pms_one",
      pms_property_id: "P",
      pms_unit_id: "U",
      pms_resident_id: "R",
      source_prospect_id: "sp-3",
    });
  });
});

describe("isOffered", () => {
  it("knows the products a quote offered, and none of a declined one", () => {
    const quote = {
      status: "quoted" as const,
      offeredProducts: [{ product_type: "cash_deposit" as const, cash_deposit_amount_cents: 100 }],
      sdiReasons: [],
      cdReasons: [],
    };
    expect(isOffered(quote, "cash_deposit")).toBe(true);
    expect(isOffered(quote, "security_deposit_insurance")).toBe(false);
    expect(isOffered(quote, "renter_guarantee_insurance")).toBe(false);
    expect(isOffered({ status: "declined", sdiReasons: [], cdReasons: [] }, "cash_deposit")).toBe(false);
  });
});
