import { expect, test } from "@playwright/test";
import { screenshots, signInAsOperator } from "./console-helpers";
import { demoCredentials } from "./helpers";

test("the ingested events screen opens on rejected events and keeps its status filter in the URL", async ({ page }) => {
  await signInAsOperator(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Ingested events" }).click();
  await expect(page.getByRole("heading", { name: "Ingested events" })).toBeVisible();
  const status = page.getByLabel("Status");
  await expect(status).toHaveText(/Rejected/);
  // Radix Select with the keyboard: open, move, choose.
  await status.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("option", { name: "Rejected" })).toBeFocused();
  for (const next of ["Skipped", "Applied", "Pending", "All"]) {
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("option", { name: next })).toBeFocused();
  }
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/console\/ingestion\?status=all$/);
  await expect(status).toHaveText(/All/);
  await expect(status).toBeFocused();
  await screenshots(page, "console-ingestion");
});

test("the owners list sorts by a header and the navigation marks the current page", async ({ page }) => {
  await signInAsOperator(page);
  await page.goto("/console/owners");
  const nav = page.getByRole("navigation", { name: "Console" });
  await expect(nav.getByRole("link", { name: "Owners" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("row").filter({ hasText: demoCredentials().owner_slug })).toBeVisible();
  const name = page.getByRole("columnheader", { name: "Name" });
  await name.getByRole("button").click();
  await expect(name).toHaveAttribute("aria-sort", "ascending");
  await name.getByRole("button").press("Enter");
  await expect(name).toHaveAttribute("aria-sort", "descending");
  await screenshots(page, "console-owners");
  await page.goto("/console/policies");
  await expect(page.getByRole("heading", { name: "Policies" })).toBeVisible();
  await screenshots(page, "console-policies");
});
