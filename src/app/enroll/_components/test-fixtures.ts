import type { ChooseView, DetailsView, FlowContext, PayView, QuoteView, ResultView } from "@/features/enrollment/flow/contract";

/** Views as the flow service answers them, for the pages' unit tests and visual checks. */
const context: FlowContext = {
  flow: "embedded",
  staging: true,
  firstName: "Maya",
  lease: {
    ownerName: "Barton Creek Living",
    address: "1200 Barton Springs Rd, Austin, TX 78704",
    unitLabel: "Apt 4B",
    leaseStartDate: "2026-01-01",
    leaseEndDate: "2026-12-31",
    monthlyRentCents: 185_000,
  },
};

export const detailsView: DetailsView = {
  ...context,
  step: "details",
  guarantee: false,
  values: { firstName: "Maya", lastName: "Lopez", email: "maya@example.com", phone: "5125550100", birthdate: "1994-05-17" },
  disclosures: [
    { id: "terms", title: "Terms of coverage", body: "Deposit insurance replaces your cash security deposit; it is not renters insurance." },
    { id: "privacy", title: "Privacy", body: "We use your details to check your eligibility and issue your policy." },
  ],
};

export const quoteView: QuoteView = { ...context, step: "quote" };

export const chooseView: ChooseView = {
  ...context,
  step: "choose",
  offers: [
    { productType: "security_deposit_insurance", upfrontPremiumCents: 17_500, monthlyPremiumCents: 1_500, coverageAmountCents: 150_000, percentSavings: 88 },
    { productType: "cash_deposit", cashDepositAmountCents: 150_000 },
  ],
  selected: { productType: "security_deposit_insurance", cadence: "monthly" },
};

export const guaranteeChooseView: ChooseView = {
  ...context,
  step: "choose",
  offers: [
    {
      productType: "renter_guarantee_insurance",
      coverageAmountCents: 370_000,
      upfrontPremiumCents: 25_900,
      monthlyPremiumCents: 2_400,
      productVersion: "2025.12.01",
    },
  ],
};

export const payView: PayView = {
  ...context,
  step: "pay",
  productType: "security_deposit_insurance",
  cadence: "upfront",
  amountDueCents: 17_500,
  summary: "Deposit insurance, paid upfront",
  paymentAvailable: true,
  attempt: "a-1",
};

export const resultView: ResultView = {
  ...context,
  step: "result",
  state: "completed",
  message: "Your deposit insurance is active from Jan 1, 2026. We sent a copy to maya@example.com.",
  productType: "security_deposit_insurance",
  policyNumber: "SDI-2026-000123",
  coverageAmountCents: 150_000,
  documentsUrl: "/documents/abc.zip",
  redirectTo: null,
  messageOrigins: ["https://portal.example.com"],
};
