import { expect, test } from "@playwright/test";
import { MESSAGE_DATA, type MessageData } from "../src/features/messages/kinds";
import type { RenterMessageKind } from "../src/features/messages/renter-messages.table";
import { renderMessage } from "../src/features/messages/templates/render";
import { expectAccessible } from "./a11y-helpers";

// decisions §19 Accessible: every renter message's HTML, rendered from its template with the figures a
// real message carries, has no axe-core violation of impact serious or critical at 375 and 1280 px in
// Chromium. The data goes through each kind's own zod schema first, as `queueRenterMessage` does, so a
// sample that drifts from what the code writes fails here rather than checking an impossible message.

const BASE = "https://enroll.example.com/enroll/account";
const owner = { ownerName: "Riverside Property Management" };

type Sample = { [K in RenterMessageKind]: { kind: K; name: string; data: MessageData[K] & { ownerName?: string }; shows: string } }[RenterMessageKind];

const SAMPLES: Sample[] = [
  {
    kind: "account_sign_in",
    name: "sign-in",
    data: { link: `${BASE}/sign-in/${"A".repeat(43)}`, expiresAt: "2027-03-01T14:15:00.000Z" },
    shows: "Sign in",
  },
  {
    kind: "policy_issued",
    name: "issued-documents",
    data: {
      ...owner,
      policyNumber: "SDI-2027-000123",
      productName: "Security deposit insurance",
      coverageAmountCents: 150_000,
      coverageStartDate: "2027-03-01",
      coverageEndDate: "2028-02-29",
      premiumCents: 1_875,
      cadence: "monthly",
      documentsUrl: "https://enroll.example.com/documents/abcdefghijklmnopqrstuvwxyz012345.zip",
      accountUrl: BASE,
    },
    shows: "SDI-2027-000123",
  },
  {
    kind: "policy_issued",
    name: "issued-service-deposit",
    data: {
      ...owner,
      policyNumber: "SVC-2027-000124",
      productName: "Service deposit",
      coverageAmountCents: 50_000,
      coverageStartDate: "2027-03-01",
      coverageEndDate: "2028-02-29",
      premiumCents: 9_900,
      cadence: "upfront",
      accountUrl: BASE,
    },
    shows: "$99.00 paid upfront",
  },
  {
    kind: "policy_documents_updated",
    name: "documents-updated",
    data: {
      ...owner,
      policyNumber: "SDI-2027-000123",
      documentsUrl: "https://enroll.example.com/documents/zyxwvutsrqponmlkjihgfedcba543210.zip",
      accountUrl: BASE,
    },
    shows: "SDI-2027-000123",
  },
  {
    kind: "payment_receipt",
    name: "receipt",
    data: {
      ...owner,
      policyNumber: "SDI-2027-000123",
      amountCents: 1_875,
      paidAt: "2027-04-01T09:30:00.000Z",
      description: "Premium for April 2027",
      reference: "ch_3QxYz2AbCdEfGhIj",
      accountUrl: BASE,
    },
    shows: "$18.75",
  },
  {
    kind: "payment_failed",
    name: "payment-failed",
    data: { ...owner, policyNumber: "SDI-2027-000123", amountDueCents: 1_875, payUrl: `${BASE}/policies/42/pay` },
    shows: "$18.75",
  },
  {
    kind: "delinquency_resolved",
    name: "delinquency-resolved",
    data: { ...owner, policyNumber: "SDI-2027-000123", amountPaidCents: 1_875, accountUrl: BASE },
    shows: "$18.75",
  },
  { kind: "application_declined", name: "declined", data: { ...owner, unitLabel: "10 Main St, Unit 101" }, shows: "Riverside Property Management" },
  { kind: "application_declined", name: "declined-no-owner", data: {}, shows: "Your renter account" },
  {
    kind: "policy_canceled",
    name: "canceled-refund",
    data: { ...owner, policyNumber: "SDI-2027-000125", canceledOn: "2027-06-15", refundCents: 12_345, accountUrl: BASE },
    shows: "$123.45",
  },
  {
    kind: "policy_canceled",
    name: "canceled",
    data: { ...owner, policyNumber: "SDI-2027-000126", canceledOn: "2027-06-15", accountUrl: BASE },
    shows: "SDI-2027-000126",
  },
  {
    kind: "coverage_ending",
    name: "coverage-ending",
    data: { ...owner, policyNumber: "SDI-2027-000123", coverageEndDate: "2028-02-29", accountUrl: BASE },
    shows: "SDI-2027-000123",
  },
];

test("every kind of renter message has a sample here", () => {
  expect(new Set(SAMPLES.map((sample) => sample.kind))).toEqual(new Set(Object.keys(MESSAGE_DATA)));
});

for (const sample of SAMPLES) {
  test(`the ${sample.name} message (${sample.kind}) passes axe-core at both widths`, async ({ page }) => {
    MESSAGE_DATA[sample.kind].parse(sample.data);
    const { html } = await renderMessage(sample.kind, sample.data);
    await page.setContent(html, { waitUntil: "load" });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator("body")).toContainText(sample.shows);
    await expectAccessible(page, `message-${sample.name}`);
  });
}
