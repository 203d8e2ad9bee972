import { expect, test } from "@playwright/test";
import { screenshots, signInAsOperator } from "./console-helpers";
import { createActiveOwner, createReadyProspect, type Partner, partnerApi, startWebhookReceiver } from "./enrollment-helpers";

let api: Partner;
test.beforeAll(async () => {
  api = await partnerApi();
});
test.afterAll(async () => api.dispose());

test("an operator finds a prospect by its partner id and reads its eligibility, links and the deliveries about it", async ({ page }) => {
  const receiver = await startWebhookReceiver();
  try {
    const owner = await createActiveOwner(api);
    await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: { name: "e2e prospects", destination_url: receiver.url, events: ["prospect.created", "prospect.ready"] },
    });
    const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1" });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);

    await signInAsOperator(page);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Prospects" }).click();
    await expect(page.getByRole("heading", { name: "Prospects" })).toBeVisible();
    await page.getByLabel("Partner prospect id").fill(prospect.id);
    // The status select is reached with Tab and opened with the keyboard (Radix Select).
    await page.getByLabel("Email").focus();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Status")).toBeFocused();
    await page.keyboard.press("Enter");
    await page.getByRole("option", { name: "Ready" }).click();
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?source_prospect_id=${prospect.id}&status=ready$`));
    const row = page.getByRole("row").filter({ hasText: prospect.id });
    await expect(row).toContainText(owner);
    await expect(row.getByText("eligible", { exact: true })).toBeVisible();
    await screenshots(page, "console-prospects");

    await row.getByRole("link", { name: prospect.id }).click();
    await expect(page.getByRole("heading", { name: `Prospect ${prospect.id}` })).toBeVisible();
    const main = page.getByRole("main");
    await expect(main.getByRole("tab", { name: "Eligibility" })).toHaveAttribute("aria-selected", "true");
    await expect(main.getByRole("link", { name: prospect.embedded })).toBeVisible();
    await expect(main.getByRole("link", { name: prospect.hosted })).toBeVisible();
    await screenshots(page, "console-prospect-detail");

    // Tabs: arrow keys move between them; the chosen tab is in the URL.
    await main.getByRole("tab", { name: "Eligibility" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(main.getByRole("tab", { name: /Applications/ })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(main.getByRole("tab", { name: /Deliveries/ })).toBeFocused();
    await expect(page).toHaveURL(/tab=deliveries/);
    const deliveries = main.getByRole("region", { name: "Deliveries about this prospect" });
    await expect(deliveries.getByRole("row").filter({ hasText: "prospect.ready" })).toContainText("delivered");
    await expect(deliveries.getByRole("row").filter({ hasText: "prospect.created" })).toContainText("delivered");
    await screenshots(page, "console-prospect-deliveries");
  } finally {
    await receiver.close();
  }
});

test("a prospect that does not exist says so", async ({ page }) => {
  await signInAsOperator(page);
  await page.goto("/console/prospects/2000000000");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Prospect not found");
  const answer = await page.goto("/console/prospects/tpp_1");
  expect(answer?.status()).toBe(404);
});
