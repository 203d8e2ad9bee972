import { expect, test } from "@playwright/test";
import { signInAsOperator } from "./console-helpers";
import { demoCredentials } from "./helpers";

test("an anonymous visit to the console is sent to sign-in", async ({ page }) => {
  await page.goto("/console");
  await expect(page).toHaveURL(/\/console\/signin$/);
  await expect(page.getByRole("heading", { name: "Console sign-in" })).toBeVisible();
});

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/console/signin");
  await page.getByLabel("Email").fill(demoCredentials().console_email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Email or password is not correct.")).toBeVisible();
  await expect(page).toHaveURL(/\/console\/signin$/);
});

test("an operator signs in and sees the demo owner, read through the console's tRPC router", async ({ page }) => {
  const demo = demoCredentials();
  await signInAsOperator(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Owners" }).click();
  await expect(page).toHaveURL(/\/console\/owners$/);
  await expect(page.getByRole("heading", { name: "Property owners" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: demo.owner_slug });
  await expect(row).toContainText("Demo Property Management");
  await expect(row).toContainText("Partner-created");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/console\/signin/);
  await page.goto("/console");
  await expect(page).toHaveURL(/\/console\/signin$/);
});

test("the policies screen searches, and a policy page that does not exist says so (admin_policy_url's page)", async ({ page }) => {
  await signInAsOperator(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Policies" }).click();
  await expect(page.getByRole("heading", { name: "Policies" })).toBeVisible();
  await page.getByLabel("Policy number, renter or prospect id").fill("PIS-1900-000000");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No policies match.")).toBeVisible();
  // The filter is in the URL: the view can be shared and survives a reload.
  await expect(page).toHaveURL(/\/console\/policies\?q=PIS-1900-000000$/);
  await page.reload();
  await expect(page.getByLabel("Policy number, renter or prospect id")).toHaveValue("PIS-1900-000000");
  await expect(page.getByText("No policies match.")).toBeVisible();
  await page.goto("/console/policies/2000000000");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Policy not found");
  const answer = await page.goto("/console/policies/not-a-number");
  expect(answer?.status()).toBe(404);
});
