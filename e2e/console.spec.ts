import { expect, test } from "@playwright/test";
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
  await page.goto("/console/signin");
  await page.getByLabel("Email").fill(demo.console_email);
  await page.getByLabel("Password").fill(demo.console_password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByRole("heading", { name: "Property owners" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: demo.owner_slug });
  await expect(row).toContainText("Demo Property Management");
  await expect(row).toContainText("Partner-created");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/console\/signin/);
  await page.goto("/console");
  await expect(page).toHaveURL(/\/console\/signin$/);
});
