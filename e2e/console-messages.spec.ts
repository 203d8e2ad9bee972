import { expect, test } from "@playwright/test";
import { queueSignInMessage, screenshots, signInAsOperator } from "./console-helpers";
import { unique } from "./enrollment-helpers";

test("the Messages screen finds a kept renter message by email and shows it as the renter sees it (decisions §19)", async ({ page }) => {
  const to = `renter-${unique()}@example.com`;
  const id = queueSignInMessage(to);

  await signInAsOperator(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Messages" }).click();
  await expect(page.getByRole("heading", { name: "Messages" })).toBeVisible();
  await page.getByLabel("Email").fill(to);
  await page.getByLabel("Email").press("Enter");
  const row = page.getByRole("row").filter({ hasText: to });
  await expect(row).toContainText("Account sign-in link");
  // The inline worker renders it and, without SMTP_URL, keeps it.
  await expect(row).toContainText("Kept (not sent)", { timeout: 15_000 });
  await screenshots(page, "console-messages");

  await row.getByRole("link", { name: "Your sign-in link" }).click();
  await expect(page).toHaveURL(new RegExp(`/console/messages/${id}$`));
  await expect(page.getByRole("heading", { name: "Your sign-in link" })).toBeVisible();
  const frame = page.frameLocator(`iframe[title="Message ${id} as the renter sees it"]`);
  await expect(frame.getByRole("heading", { name: "Sign in to your renter account" })).toBeVisible();
  await expect(frame.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "http://localhost/account/sign-in/e2e");
  await page.getByRole("tab", { name: "Plain text" }).click();
  await expect(page.getByText("http://localhost/account/sign-in/e2e").first()).toBeVisible();
  await screenshots(page, "console-message");
});
