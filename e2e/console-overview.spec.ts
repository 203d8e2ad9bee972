import { expect, test } from "@playwright/test";
import { screenshots, signInAsOperator } from "./console-helpers";
import { createActiveOwner, createReadyProspect, type Partner, partnerApi, startWebhookReceiver } from "./enrollment-helpers";

let api: Partner;
test.beforeAll(async () => {
  api = await partnerApi();
});
test.afterAll(async () => api.dispose());

test("the overview shows the delivery figures, the charts and an endpoint that fails", async ({ page }) => {
  // An endpoint whose receiver is gone: its first attempt fails (connection refused).
  const gone = await startWebhookReceiver();
  await gone.close();
  const owner = await createActiveOwner(api);
  const name = `e2e unreachable ${owner}`;
  await api.post(`/partners/${owner}/webhooks/endpoints`, { endpoint: { name, destination_url: gone.url, events: ["prospect.created"] } });
  await createReadyProspect(api, { owner, property: "b1", unit: "u1" });

  await signInAsOperator(page);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(main.getByText("Success rate (24 h)")).toBeVisible();
  await expect(main.getByText("Queue: jobs due")).toBeVisible();
  await expect(main.getByRole("img", { name: /^Delivery success rate per hour: / })).toBeVisible();
  await expect(main.getByRole("img", { name: /^Attempt latency per hour/ })).toBeVisible();
  await expect(main.locator(".recharts-surface").first()).toBeVisible();

  // The first failure reaches the overview on its next refresh (the page also polls every 30 s).
  const row = main.getByRole("region", { name: "Failing endpoints" }).getByRole("row").filter({ hasText: name });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  // Every attempt failed: "1 of 1", or "2 of 2" when the page loaded after the retry (4 s later).
  await expect(row).toContainText(/(?<!\d)(\d+) of \1(?!\d)/);
  await expect(row.getByRole("link", { name })).toHaveAttribute("href", /\/console\/deliveries\?endpoint_id=/);

  // The figures behind a chart are one keyboard press away.
  await main.getByText("Figures").first().focus();
  await page.keyboard.press("Enter");
  await expect(main.getByRole("region", { name: "Figures per hour" }).first().getByRole("row")).toHaveCount(25);
  await screenshots(page, "console-overview");
});
