import { expect, type Page, test } from "@playwright/test";
import { screenshots, signInAsOperator } from "./console-helpers";

/** decisions §15 in a real browser: too many failed sign-ins say to try later; sign-out ends the session everywhere. */

async function tryPassword(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
}

test("after five failed sign-ins for an email the page says to try again later", async ({ page }) => {
  // An email nobody has: the limit and the message are the same as for a real user's.
  const email = `e2e-throttle-${Date.now()}@example.com`;
  await page.goto("/console/signin");
  for (let i = 0; i < 5; i++) {
    await tryPassword(page, email, `wrong password number ${i}`);
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Email or password is not correct.");
  }
  await tryPassword(page, email, "wrong password number 6");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Too many failed sign-in attempts. Try again in 15 minutes.");
  await expect(page).toHaveURL(/\/console\/signin$/);
  await screenshots(page, "console-sign-in-throttled");
});

test("signing out ends the session for a copy of its cookie too", async ({ page, browser }) => {
  await signInAsOperator(page);
  const copy = await browser.newContext();
  await copy.addCookies(await page.context().cookies());
  const stolen = await copy.newPage();
  await stolen.goto("/console");
  await expect(stolen).toHaveURL(/\/console$/);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/console\/signin/);
  await stolen.goto("/console/owners");
  await expect(stolen).toHaveURL(/\/console\/signin$/);
  await copy.close();
});
