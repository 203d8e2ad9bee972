import { expect, test } from "@playwright/test";
import { periodStart } from "../src/features/billing/schedule";
import { screenshots, signInAsOperator } from "./console-helpers";
import { admin, createActiveOwner, createReadyProspect, enrollToCompletion, OPTIONS, partnerApi, startWebhookReceiver } from "./enrollment-helpers";

type Delivered = { event: string; property_owner_slug: string; data: { delinquency: Record<string, unknown> } };

/**
 * Billing (docs/decisions.md, "Billing and delinquencies"): a renter buys deposit insurance paid monthly; the staging
 * levers make the next month's charge decline; the operator finds the delinquency on the policy
 * page and in /console/delinquencies, settles it, and the partner's HTTPS endpoint receives
 * `delinquency.created` then `delinquency.resolved`.
 */
test("a declined month becomes a delinquency the operator settles in the console; the partner hears both events", async ({ page }) => {
  const receiver = await startWebhookReceiver();
  const api = await partnerApi();
  try {
    const owner = await createActiveOwner(api);
    await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: { name: "e2e billing", destination_url: receiver.url, events: ["delinquency.created", "delinquency.resolved"] },
    });
    const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1" });
    await page.goto(prospect.hosted);
    const done = await enrollToCompletion(page, OPTIONS.sdiMonthly);
    const policyNumber = (await done.getByTestId("policy-number").textContent())?.trim() ?? "";
    const { policies } = admin("policy", "list", "--owner", owner) as { policies: { id: number; policy_number: string; coverage_start_date: string }[] };
    const policy = policies.find((row) => row.policy_number === policyNumber);
    if (!policy) throw new Error(`policy ${policyNumber} not listed`);

    // The staging levers (decisions §4): the next charge declines; bill as of the second month's start.
    expect(admin("billing", "fail-next", "--policy", policyNumber)).toEqual({ policy_number: policyNumber });
    const run = admin("billing", "run", "--as-of", periodStart(policy.coverage_start_date, 1)) as {
      failed: { policy_number: string; delinquency_id: string }[];
    };
    const failed = run.failed.find((item) => item.policy_number === policyNumber);
    expect(failed).toMatchObject({ reason: "card_declined", delinquency_id: expect.stringMatching(/^delinquency_\d+$/) });

    const bodies = () => receiver.received.map((r) => JSON.parse(r.body) as Delivered);
    await expect.poll(() => bodies().map((b) => b.event), { timeout: 20_000 }).toContain("delinquency.created");
    const created = bodies().find((b) => b.event === "delinquency.created");
    expect(created?.data.delinquency).toMatchObject({
      id: failed?.delinquency_id,
      status: "active",
      policy_number: policyNumber,
      source_prospect_id: prospect.id,
    });

    // The policy page shows it, with the charge that failed.
    await signInAsOperator(page);
    await page.goto(`/console/policies/${policy.id}`);
    const billing = page.getByRole("region", { name: "Billing" });
    await expect(billing.getByRole("status")).toContainText(`${failed?.delinquency_id}`);
    await expect(billing.getByRole("status")).toContainText("Renewal is blocked");
    await expect(billing.getByRole("region", { name: "Charges" }).getByRole("row").nth(1)).toContainText("declined");
    await screenshots(page, "console-billing-policy");

    // The delinquencies screen lists it; the filters are in the URL.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Delinquencies" }).click();
    await expect(page.getByRole("heading", { name: "Delinquencies" })).toBeVisible();
    await page.getByLabel("Owner slug").fill(owner);
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Active" }).click();
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/owner=/);
    await expect(page).toHaveURL(/status=active/);
    const rows = page.getByRole("region", { name: "Delinquencies" }).getByRole("row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(policyNumber);
    await screenshots(page, "console-billing-delinquencies");

    // Settle it from the policy page, after confirming.
    await rows.nth(1).getByRole("link", { name: policyNumber }).click();
    await expect(page).toHaveURL(new RegExp(`/console/policies/${policy.id}$`));
    await page.getByRole("button", { name: "Settle" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("nothing changes");
    await screenshots(page, "console-billing-settle-dialog");
    await dialog.getByRole("button", { name: /^Charge \$/ }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("region", { name: "Billing" }).getByText(/^Settled: \$/)).toBeVisible();
    const delinquencies = page.getByRole("region", { name: "Billing" }).getByRole("region", { name: "Delinquencies" });
    await expect(delinquencies.getByRole("row").nth(1)).toContainText("resolved");
    await expect(page.getByRole("button", { name: "Settle" })).toHaveCount(0);
    await screenshots(page, "console-billing-settled");

    await expect.poll(() => bodies().map((b) => b.event), { timeout: 20_000 }).toContain("delinquency.resolved");
    const resolved = bodies().find((b) => b.event === "delinquency.resolved");
    expect(resolved).toEqual({
      event: "delinquency.resolved",
      property_owner_slug: owner,
      data: { delinquency: { ...created?.data.delinquency, status: "resolved", amount_cents: 0 } },
    });
  } finally {
    await api.dispose();
    await receiver.close();
  }
});
