import { expect, test } from "@playwright/test";

test("the API reference renders offline and lists the owner route", async ({ page }) => {
  const external: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.hostname !== "localhost") external.push(request.url());
  });
  await page.goto("/api/docs");
  await expect(page.getByText("/partners/property_owners").first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Create or update a property owner").first()).toBeVisible();
  await expect(page.getByText("/token").first()).toBeVisible();
  expect(external).toEqual([]);
});

test("every route shows a curl and a TypeScript (SDK) example", async ({ page }) => {
  await page.goto("/api/docs");
  await page.getByText("Create or update a property owner").first().click();
  const operation = page.locator(".opblock.is-open").first();
  await expect(operation.getByText(/curl -X POST "http.*\/partners\/property_owners"/).first()).toBeVisible({ timeout: 20_000 });
  await expect(operation.getByText(/await api\.POST\("\/partners\/property_owners"/).first()).toBeVisible();
  await expect(operation.getByText(/import \{ createPartnerClient \} from "@partner-integration\/sdk"/).first()).toBeVisible();
});
