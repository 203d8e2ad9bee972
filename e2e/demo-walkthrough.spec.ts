import { expect, test } from "@playwright/test";
import { KEEP_SCREENS } from "./helpers";

// The demo page end to end (docs/decisions.md, "Demo page"): a standard renter created on /demo (opened on
// 127.0.0.1, the links on localhost), the embedded flow walked inside the frame to a paid policy,
// `completed` logged from the frame, and `policy.created` among the demo owner's deliveries.
// Markers and names: notes/ui-contract.md (decisions §10 Markers).
test("a standard renter enrolls inside the demo page's frame; the page logs completed and shows policy.created", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const demo = new URL("/demo", baseURL);
  demo.hostname = "127.0.0.1";
  await page.goto(demo.toString());
  await page.getByRole("radio", { name: /Standard renter/ }).check();
  await page.getByRole("button", { name: "Create prospect" }).click();
  await expect(page.getByTestId("prospect-state")).toContainText("enrollment link ready", { timeout: 30_000 });
  const id = (await page.getByTestId("prospect-state").textContent())?.split(":")[0] ?? "";
  expect(id).toMatch(/^demo-page-standard-/);

  const frame = page.frameLocator('iframe[title="Embedded enrollment"]');
  await expect(frame.locator('main[data-step="details"]')).toBeVisible();
  await expect(frame.getByLabel("First name")).toHaveValue("Dana");
  await expect(frame.getByLabel("Email")).toHaveValue(/^demo\..+@example\.com$/);
  await frame.getByLabel("I have read and accept the disclosures").check();
  await frame.getByRole("button", { name: "Continue" }).click();

  // Underwriting is a job; the quote step refreshes itself until the offers are stored.
  await expect(frame.locator('main[data-step="choose"]')).toBeVisible({ timeout: 30_000 });
  // The option's label covers its radio (a card): the renter clicks the label.
  await frame.locator("label", { hasText: "Deposit insurance, paid upfront" }).click();
  await expect(frame.getByRole("radio", { name: "Deposit insurance, paid upfront" })).toBeChecked();
  await frame.getByRole("button", { name: "Continue to payment" }).click();

  await expect(frame.locator('main[data-step="pay"]')).toBeVisible();
  await frame.getByLabel("Name on card").fill("Dana Demo");
  await frame.getByLabel("Card number").fill("4242 4242 4242 4242");
  await frame.getByLabel("Expiry date").fill("12/30");
  await frame.getByLabel("Security code").fill("123");
  await frame.getByLabel("ZIP code").fill("78704");
  await frame.getByRole("button", { name: /^Pay / }).click();

  await expect(frame.locator('main[data-step="result"][data-enrollment-state="completed"]')).toBeVisible({ timeout: 30_000 });
  await expect(frame.getByTestId("policy-number")).toBeVisible();

  const log = page.getByRole("region", { name: "Messages from the frame" });
  await expect(log.locator('li[data-message="completed"]')).toBeVisible();
  await expect(log.locator("li")).toHaveCount(1);

  const deliveries = page.getByRole("region", { name: "Webhook deliveries" });
  const policy = deliveries.locator('li[data-event="policy.created"]').filter({ hasText: id });
  await expect(policy).toBeVisible({ timeout: 15_000 });
  await policy.locator("summary").click();
  await expect(policy.locator("pre")).toContainText('"event": "policy.created"');
  await expect(policy.locator("pre")).toContainText(`"source_prospect_id": "${id}"`);
  if (KEEP_SCREENS) await page.screenshot({ path: "test-results/demo-walkthrough.png", fullPage: true });
});
