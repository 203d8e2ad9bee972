import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { screenshots, signInAsOperator } from "./console-helpers";
import { admin, createActiveOwner, createReadyProspect, enrollToCompletion, OPTIONS, partnerApi, unique } from "./enrollment-helpers";

/** A dispute of the policy's purchase, recorded by the real `recordDispute` on the e2e server's database. */
function recordDispute(input: { policyNumber: string; disputeId: string; status: string; reason: string; amountCents: number }) {
  const run = spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "e2e/support/record-dispute.ts", JSON.stringify(input)], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
}

type Shown = { refunds: { status: string; amount_cents: number }[]; payments: { processor_id: string; amount_cents: number }[] };

/**
 * The policy page's payments (decisions §18; docs/decisions.md, "Refunds, disputes and
 * reconciliation"), on the staging e2e server (simulated processor): a renter buys deposit insurance
 * upfront, the operator cancels it and the refund reaches `succeeded` through the worker, the bank
 * disputes the purchase; the page shows the payment (a simulated id, not linked), the refund with its
 * status and the dispute flagged with amount, reason and status. The unresolved payments screen reads.
 */
test("the policy page shows its payments, its refund with the processor's status and a dispute flagged", async ({ page }) => {
  test.setTimeout(180_000);
  const api = await partnerApi();
  const owner = await createActiveOwner(api);
  const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1" });
  await page.goto(prospect.hosted);
  const done = await enrollToCompletion(page, OPTIONS.sdiUpfront);
  const policyNumber = (await done.getByTestId("policy-number").textContent())?.trim() ?? "";
  const { policies } = admin("policy", "list", "--owner", owner) as { policies: { id: number; policy_number: string }[] };
  const policy = policies.find((row) => row.policy_number === policyNumber);
  if (!policy) throw new Error(`policy ${policyNumber} not listed`);

  const canceled = admin("policy", "cancel", "--policy", policyNumber, "--reason", "Moved elsewhere") as { refund_cents: number };
  expect(canceled.refund_cents).toBeGreaterThan(0);
  // The worker in the e2e server asks the processor (refund__send).
  await expect.poll(() => (admin("policy", "show", "--policy", policyNumber) as Shown).refunds[0]?.status ?? "none", { timeout: 20_000 }).toBe("succeeded");
  const shown = admin("policy", "show", "--policy", policyNumber) as Shown;
  const disputeId = `dp_e2e_${unique()}`;
  recordDispute({ policyNumber, disputeId, status: "needs_response", reason: "fraudulent", amountCents: shown.payments[0].amount_cents });

  await signInAsOperator(page);
  await page.goto(`/console/policies/${policy.id}`);
  // Flagged at the top of the page, and in its Payments section.
  await expect(page.locator("[data-flag=disputed]")).toContainText("A payment is disputed");
  const payments = page.getByRole("region", { name: "Payments", exact: true });
  await expect(payments.getByRole("status")).toContainText("disputed by the renter's bank");

  const purchase = payments.getByRole("region", { name: "Payment attempts" }).getByRole("row").nth(1);
  await expect(purchase).toContainText("Purchase");
  await expect(purchase).toContainText("simulated");
  await expect(purchase).toContainText(shown.payments[0].processor_id);
  // A simulated payment has no dashboard: its id is not a link.
  await expect(purchase.getByRole("link")).toHaveCount(0);

  const refund = payments.getByRole("region", { name: "Refunds" }).getByRole("row").nth(1);
  await expect(refund).toContainText(`$${(canceled.refund_cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
  await expect(refund).toContainText("succeeded");

  const dispute = payments.getByRole("region", { name: "Disputes" }).getByRole("row").nth(1);
  await expect(dispute).toContainText("fraudulent");
  await expect(dispute).toContainText("needs response");
  await expect(dispute).toContainText(disputeId);
  await payments.scrollIntoViewIfNeeded();
  await screenshots(page, "console-policy-payments");

  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Unresolved payments" }).click();
  await expect(page.getByRole("heading", { name: "Unresolved payments" })).toBeVisible();
  // The e2e server runs the simulated processor, which decides every payment at once: nothing is ever unresolved.
  await expect(page.getByText("No unresolved payment.")).toBeVisible();
  await screenshots(page, "console-unresolved-payments");
});
