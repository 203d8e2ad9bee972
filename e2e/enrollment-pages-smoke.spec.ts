import { expect, type Page, test } from "@playwright/test";
import { completeProspectFields } from "../src/test/samples";
import { demoCredentials } from "./helpers";

// decisions §10: the renter pages work with the keyboard alone, move focus where the renter needs
// it (the new step's heading, the error summary), keep what was typed, and fit a 375 px phone.
test.use({ viewport: { width: 375, height: 800 } });

let link: string;

test.beforeAll(async ({ request }) => {
  const demo = demoCredentials();
  const token = await request.post("/api/token", {
    data: { grant_type: "client_credentials", client_id: demo.client_id, client_secret: demo.client_secret, audience: demo.audience },
  });
  expect(token.status()).toBe(200);
  const headers = { authorization: `Bearer ${(await token.json()).access_token}` };
  const base = `/api/partners/${demo.owner_slug}`;
  const id = `pages-smoke-${Date.now()}`;
  const fields = completeProspectFields(demo.source, id, demo.property_external_id, demo.unit_external_ids[0]);
  const created = await request.post(`${base}/prospects`, { headers, data: { prospect: { ...fields, email: `${id}@example.com` } } });
  expect(created.status(), await created.text()).toBeLessThan(300);
  await expect
    .poll(
      async () => {
        const prospect = (await (await request.get(`${base}/prospects/${demo.source}/${id}`, { headers })).json()).prospect;
        link = prospect?.enrollment_url;
        return link ?? null;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();
});

/** Nothing is wider than the phone: no sideways scrolling on any step. */
async function expectFitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

test("a renter enrolls with the keyboard alone on a phone, focus following each step", async ({ page }) => {
  await page.goto(link);
  const details = page.locator('main[data-step="details"]');
  await expect(details.getByRole("heading", { level: 1, name: "Confirm your details" })).toBeVisible();
  await expect(details).toContainText("Your lease");
  await expectFitsThePhone(page);

  // The first Tab lands on the first field; a wrong phone submitted with Enter is reported beside it.
  await page.keyboard.press("Tab");
  await expect(details.getByLabel("First name", { exact: true })).toBeFocused();
  const phone = details.getByLabel("Phone", { exact: true });
  await phone.fill("512");
  await phone.press("Enter");
  const summary = details.getByRole("alert");
  await expect(summary).toBeFocused();
  await expect(summary).toContainText("phone");
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await expect(phone).toHaveAccessibleDescription(/10-digit/);
  await expect(phone).toHaveValue("512");
  await expect(details.getByLabel("I have read and accept the disclosures")).toHaveAttribute("aria-invalid", "true");

  // The summary's link takes the renter to the field; then Space ticks the box and Enter goes on.
  await summary.getByRole("link").first().press("Enter");
  await phone.fill("512 555 0188");
  await details.getByLabel("I have read and accept the disclosures").focus();
  await page.keyboard.press("Space");
  await details.getByRole("button", { name: "Continue" }).press("Enter");

  // The quote step refreshes itself into the choice; focus is on the new heading.
  const choose = page.locator('main[data-step="choose"]');
  const chooseHeading = choose.getByRole("heading", { level: 1, name: "Choose your option" });
  await expect(chooseHeading).toBeFocused({ timeout: 20_000 });
  await expectFitsThePhone(page);
  const options = choose.getByRole("group", { name: "Your options" });
  await options.getByRole("radio").first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(options.getByRole("radio", { name: "Deposit insurance, paid monthly" })).toBeChecked();
  await expect(options.getByRole("radio", { name: "Deposit insurance, paid monthly" })).toHaveAccessibleDescription(/^\$[\d,]+\.\d{2} a month/);
  await choose.getByRole("button", { name: "Continue to payment" }).press("Enter");

  const pay = page.locator('main[data-step="pay"]');
  await expect(pay.getByRole("heading", { level: 1, name: "Payment" })).toBeFocused();
  await expectFitsThePhone(page);
  await page.keyboard.press("Tab");
  await expect(pay.getByLabel("Name on card", { exact: true })).toBeFocused();
  await page.keyboard.type("Rita Renter");
  await page.keyboard.press("Tab");
  await page.keyboard.type("4000000000000002");
  await expect(pay.getByLabel("Card number", { exact: true })).toHaveValue("4000 0000 0000 0002");
  await page.keyboard.press("Tab");
  await page.keyboard.type("12/30");
  await page.keyboard.press("Tab");
  await page.keyboard.type("123");
  await page.keyboard.press("Tab");
  await page.keyboard.type("78704");
  await page.keyboard.press("Enter");

  // A decline: announced and focused, the card number to type again, the rest kept.
  await expect(pay.getByRole("alert")).toBeFocused();
  await expect(pay.getByRole("alert")).toContainText("declined");
  await expect(pay.getByLabel("Card number", { exact: true })).toHaveValue("");
  await expect(pay.getByLabel("Name on card", { exact: true })).toHaveValue("Rita Renter");
  await expect(pay.getByLabel("ZIP code", { exact: true })).toHaveValue("78704");
  await pay.getByLabel("Card number", { exact: true }).fill("4242424242424242");
  await pay.getByLabel("Security code", { exact: true }).fill("123");
  await pay.getByRole("button", { name: /^Pay \$/ }).press("Enter");

  const done = page.locator('main[data-step="result"][data-enrollment-state="completed"]');
  await expect(done.getByRole("heading", { level: 1, name: "You're covered" })).toBeFocused({ timeout: 20_000 });
  await expect(done.getByTestId("policy-number")).not.toBeEmpty();
  await expect(done.getByRole("link", { name: "Download your policy documents" })).toBeVisible({ timeout: 20_000 });
  await expectFitsThePhone(page);
});
