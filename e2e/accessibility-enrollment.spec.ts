// A draft, not run (Playwright runs *.spec.ts): under a loaded machine it failed (a details submit ending on the
// framework's error page, axe timing out, a focus check); it becomes a spec once it passes (docs/decisions.md,
// "Accessibility: the renter pages under axe-core").
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectAccessible, expectVisibleFocus } from "./a11y-helpers";
import { CARDS, choose, createReadyProspect, OPTIONS, type Partner, partnerApi, pay, result, step, submitDetails } from "./enrollment-helpers";

// decisions §19 Accessible and §10: every renter page of the enrollment flow, embedded and hosted,
// each step and each result, passes axe-core (no serious or critical violation) at 375 and 1280 px;
// the whole flow can be completed with the keyboard alone, focus always visible; errors announced.

let api: Partner;

// Each page is checked at two widths: axe-core takes a few seconds a run on a busy machine.
test.setTimeout(300_000);

test.beforeAll(async () => {
  api = await partnerApi();
});

test.afterAll(async () => {
  await api?.dispose();
});

for (const flow of ["embedded", "hosted"] as const) {
  test(`${flow} flow: every step, a declined card and the result pass axe-core at both widths`, async ({ page }) => {
    const prospect = await createReadyProspect(api);
    await page.goto(prospect[flow]);
    await expect(step(page, "details")).toBeVisible();
    await expectAccessible(page, `${flow}-details`);

    // A mistake: announced (role=alert) and tied to its field (aria-invalid + aria-describedby).
    const details = step(page, "details");
    await details.getByLabel("Phone", { exact: true }).fill("512");
    await details.getByLabel("Phone", { exact: true }).press("Enter");
    await expect(details.getByRole("alert")).toBeVisible();
    await expect(details.getByLabel("Phone", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(details.getByLabel("Phone", { exact: true })).toHaveAccessibleDescription(/10-digit/);
    await expectAccessible(page, `${flow}-details-error`);
    await details.getByLabel("Phone", { exact: true }).fill("512 555 0188");

    await submitDetails(page);
    await expect(step(page, "choose")).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, `${flow}-choose`);
    await choose(page, OPTIONS.sdiMonthly);
    await expectAccessible(page, `${flow}-pay`);

    await pay(page, CARDS.declined);
    await expect(step(page, "pay").getByRole("alert")).toContainText("declined");
    await expectAccessible(page, `${flow}-pay-declined`);
    await pay(page, CARDS.pays);
    await expect(result(page, "completed")).toBeVisible({ timeout: 20_000 });
    await expect(result(page, "completed").getByRole("link", { name: "Download your policy documents" })).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, `${flow}-result-completed`);
  });
}

test("the declined and blocked results and the invalid-link page pass axe-core", async ({ page }) => {
  const declined = await createReadyProspect(api, { email: `renter.a11y.${Date.now()}+decline@example.com` });
  await page.goto(declined.hosted);
  await submitDetails(page);
  await expect(result(page, "declined")).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page, "result-declined");

  const blocked = await createReadyProspect(api, { email: `renter.a11y.${Date.now()}+blocked@example.com` });
  await page.goto(blocked.embedded);
  await submitDetails(page);
  await expect(result(page, "blocked")).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page, "result-blocked");

  const tampered = new URL(declined.hosted);
  tampered.searchParams.set("sig", "0".repeat(64));
  expect((await page.goto(tampered.toString()))?.status()).toBe(404);
  await expectAccessible(page, "link-not-valid");
});

/** Presses Tab until `target` holds focus; every stop on the way shows where focus is. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    await expectVisibleFocus(page);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

test("a renter completes the whole hosted flow with the keyboard alone, focus visible at every stop", async ({ page }) => {
  const prospect = await createReadyProspect(api);
  await page.goto(prospect.hosted);
  const details = step(page, "details");
  await expect(details).toBeVisible();

  await tabTo(page, details.getByLabel("I have read and accept the disclosures"));
  await page.keyboard.press("Space");
  await expect(details.getByLabel("I have read and accept the disclosures")).toBeChecked();
  await tabTo(page, details.getByRole("button", { name: "Continue" }));
  await page.keyboard.press("Enter");

  const choosing = step(page, "choose");
  await expect(choosing.getByRole("heading", { level: 1, name: "Choose your option" })).toBeFocused({ timeout: 20_000 });
  const options = choosing.getByRole("group", { name: "Your options" });
  await tabTo(page, options.getByRole("radio").first());
  await page.keyboard.press("Space");
  await expect(options.getByRole("radio", { name: OPTIONS.sdiUpfront })).toBeChecked();
  await tabTo(page, choosing.getByRole("button", { name: "Continue to payment" }));
  await page.keyboard.press("Enter");

  const paying = step(page, "pay");
  await expect(paying.getByRole("heading", { level: 1, name: "Payment" })).toBeFocused({ timeout: 20_000 });
  await tabTo(page, paying.getByLabel("Name on card", { exact: true }));
  for (const [label, text] of [
    ["Name on card", "Rita Renter"],
    ["Card number", "4242424242424242"],
    ["Expiry date", "12/30"],
    ["Security code", "123"],
    ["ZIP code", "78704"],
  ] as const) {
    await expect(paying.getByLabel(label, { exact: true })).toBeFocused();
    await page.keyboard.type(text);
    if (label !== "ZIP code") await page.keyboard.press("Tab");
  }
  await tabTo(page, paying.getByRole("button", { name: /^Pay \$/ }));
  await page.keyboard.press("Enter");

  const done = result(page, "completed");
  await expect(done.getByRole("heading", { level: 1, name: "You're covered" })).toBeFocused({ timeout: 20_000 });
  await tabTo(page, done.getByRole("link", { name: "Download your policy documents" }));
});
