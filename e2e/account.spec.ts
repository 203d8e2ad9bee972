import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { periodStart } from "../src/features/billing/schedule";
import { connectPostgres } from "../src/server/db/url";
import { expectAccessible } from "./a11y-helpers";
import { admin, createActiveOwner, createReadyProspect, enrollToCompletion, OPTIONS, partnerApi, startWebhookReceiver, unique } from "./enrollment-helpers";

type Delivered = { event: string; data: { delinquency: Record<string, unknown> } };

/**
 * The renter's account (decisions §19): a renter who bought monthly deposit insurance and missed a
 * month signs in with the emailed link (read from the kept message, as staging keeps messages),
 * sees the policy, pays the overdue month (the partner hears `delinquency.resolved`), updates the
 * card, cannot open another renter's policy, and signs out. Every page passes axe-core at both widths.
 */
test("a renter signs in by the emailed link, sees the policy, pays what is overdue, updates the card and signs out", async ({ page }) => {
  test.setTimeout(300_000);
  const receiver = await startWebhookReceiver();
  const api = await partnerApi();
  const sql = connectPostgres(JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "postgres.json"), "utf8")).url, { max: 1, onnotice: () => {} });
  try {
    const owner = await createActiveOwner(api);
    await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: { name: "e2e account", destination_url: receiver.url, events: ["delinquency.created", "delinquency.resolved"] },
    });
    const email = `renter.account.${unique()}@example.com`;
    const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1", email });
    await page.goto(prospect.hosted);
    const done = await enrollToCompletion(page, OPTIONS.sdiMonthly);
    const policyNumber = (await done.getByTestId("policy-number").textContent())?.trim() ?? "";
    const { policies } = admin("policy", "list", "--owner", owner) as { policies: { id: number; policy_number: string; coverage_start_date: string }[] };
    const policy = policies.find((row) => row.policy_number === policyNumber);
    if (!policy) throw new Error(`policy ${policyNumber} not listed`);
    admin("billing", "fail-next", "--policy", policyNumber);
    admin("billing", "run", "--as-of", periodStart(policy.coverage_start_date, 1));

    // Signed out: the email form. An unknown email and a known one get the same answer.
    await page.goto("/enroll/account");
    await expect(page.locator('main[data-account-page="sign-in"]')).toBeVisible();
    await expectAccessible(page, "account-sign-in");
    await page.getByLabel("Email", { exact: true }).fill("nobody.here@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const status = page.locator("main").getByRole("status");
    await expect(status).toContainText("If an account uses this email");
    const unknownAnswer = await status.textContent();
    await page.getByLabel("Email", { exact: true }).fill("not an email");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.locator("main").getByRole("alert")).toBeFocused();
    await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "account-sign-in-error");
    await page.getByLabel("Email", { exact: true }).fill(email.toUpperCase());
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(status).toHaveText(unknownAnswer ?? "");

    // The kept message (staging keeps messages: decisions §19) holds the link.
    const [message] = await sql<{ link: string }[]>`
      select data->>'link' as link from renter_messages where kind = 'account_sign_in' and to_address = ${email} order by id desc limit 1`;
    expect(message.link).toMatch(/\/enroll\/account\/sign-in\/[A-Za-z0-9_-]{43}$/);
    await page.goto(message.link);
    await expectAccessible(page, "account-link");
    await page.getByRole("button", { name: "Sign in" }).click();

    // Signed in: the policy, its overdue amount, its payments.
    const card = page.locator(`section[data-policy-number="${policyNumber}"]`);
    await expect(card).toBeVisible();
    await expect(card).toContainText("is overdue");
    await expect(card.getByRole("table")).toContainText("Declined");
    const cookie = (await page.context().cookies()).find((c) => c.name === "pis_account");
    if (!cookie) throw new Error("no session cookie");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });
    await expectAccessible(page, "account-policies");

    // The link works once.
    const again = await page.context().newPage();
    await again.goto(message.link);
    await again.getByRole("button", { name: "Sign in" }).click();
    await expect(again.locator("main").getByRole("alert")).toContainText("already been used");
    await again.close();

    // Pay now: the pay step's card form; paying clears the delinquency and the partner hears it.
    await card.getByRole("link", { name: /^Pay now/ }).click();
    await expect(page.locator('main[data-account-page="pay"]')).toBeVisible();
    await expectAccessible(page, "account-pay-now");
    await fillCard(page.locator('main[data-account-page="pay"]'), "4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay \$\d/ }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("Payment received");
    await expect(card).not.toContainText("is overdue");
    await expect(card.getByRole("table")).toContainText("Overdue premium");
    await expectAccessible(page, "account-paid");
    const bodies = () => receiver.received.map((r) => JSON.parse(r.body) as Delivered);
    await expect.poll(() => bodies().map((b) => b.event), { timeout: 20_000 }).toContain("delinquency.resolved");

    // Update card.
    await card.getByRole("link", { name: /^Update card/ }).click();
    const cardPage = page.locator('main[data-account-page="card"]');
    await expect(cardPage).toBeVisible();
    await expectAccessible(page, "account-update-card");
    await fillCard(cardPage, "5555 5555 5555 4444");
    await cardPage.getByRole("button", { name: "Save card" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("new card is saved");
    await expect(card).toContainText("ending 4444");

    // Another renter's policy (or none) by its id in the path: 404.
    const other = await page.goto(`/enroll/account/policies/${policy.id + 100000}/pay`);
    expect(other?.status()).toBe(404);
    await expectAccessible(page, "account-not-found");

    // Sign out: the session is revoked; the pay page sends back to the sign-in form.
    await page.goto("/enroll/account");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.locator('main[data-account-page="sign-in"]')).toBeVisible();
    // The old cookie presented again opens nothing.
    await page.context().addCookies([cookie]);
    await page.goto(`/enroll/account/policies/${policy.id}/pay`);
    await expect(page.locator('main[data-account-page="sign-in"]')).toBeVisible();
  } finally {
    await Promise.all([sql.end(), receiver.close(), api.dispose()]);
  }
});

/** The pay step's card form, reused by Pay now and Update card. */
async function fillCard(form: Locator, number: string) {
  await expect(form.getByLabel("Card number", { exact: true })).toBeVisible();
  await form.getByLabel("Name on card", { exact: true }).fill("Rita Renter");
  await form.getByLabel("Card number", { exact: true }).fill(number);
  await form.getByLabel("Expiry date", { exact: true }).fill("11/31");
  await form.getByLabel("Security code", { exact: true }).fill("321");
  await form.getByLabel("ZIP code", { exact: true }).fill("78704");
}
