import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { periodStart } from "../src/features/billing/schedule";
import { connectPostgres } from "../src/server/db/url";
import { type StripeTestServer, startStripeServer } from "../src/test/stripe-server";
import { expectAccessible } from "./a11y-helpers";
import {
  admin,
  choose,
  createActiveOwner,
  createReadyProspect,
  enrollToCompletion,
  OPTIONS,
  partnerApi,
  result,
  step,
  submitDetails,
  unique,
} from "./enrollment-helpers";
import { startWebProcess, type WebProcess } from "./support/web-process";

/**
 * The pay step through Stripe in Chromium (decisions §18; docs/decisions.md, "Payments through Stripe").
 * A second web process of the built app runs with `PAYMENT_PROCESSOR=stripe` against the local
 * Stripe-compatible server (src/test/stripe-server.ts, `STRIPE_API_BASE`), on the e2e database. There
 * is no network here, so js.stripe.com is unreachable, which is exactly the case of a renter whose
 * network or blocker stops Stripe.js: the first test checks what that renter sees. The second serves a
 * stand-in for Stripe.js from js.stripe.com's own address (a route of this browser), so the page's
 * Content-Security-Policy is what lets it run, and the markers, the Payment Element's mount point and
 * the server's confirmation of the token it hands over are those of the real page.
 */

let stripe: StripeTestServer;
let web: WebProcess;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  stripe = await startStripeServer();
  const port = Number(process.env.E2E_PORT ?? 3210) + 3;
  web = await startWebProcess(port, {
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    PAYMENT_PROCESSOR: "stripe",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  });
});

test.afterAll(async () => {
  await web?.stop();
  await stripe?.close();
});

/** The pay step's whole policy: the hosted framing rule, then exactly Stripe.js's sources (nonce aside). */
const STRIPE_POLICY =
  "frame-ancestors 'none'; script-src 'self' 'nonce-N' https://js.stripe.com https://*.js.stripe.com; " +
  "frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com; connect-src 'self' https://api.stripe.com";
const policyOf = (headers: Record<string, string> | undefined) =>
  (headers?.["content-security-policy"] ?? "").replace(/'nonce-[A-Za-z0-9+/=]{20,}'/, "'nonce-N'");

/** A renter's hosted link, opened on the Stripe web process (the link's signature does not name a host). */
async function hostedOnStripe(): Promise<{ owner: string; url: string }> {
  const api = await partnerApi();
  const owner = await createActiveOwner(api);
  const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1" });
  const link = new URL(prospect.hosted);
  return { owner, url: `${web.url}${link.pathname}${link.search}` };
}

/** Every request the page makes beyond the web process itself (Stripe.js's address, a CDN, anything). */
function outsideRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(web.url) && !request.url().startsWith("data:")) seen.push(request.url());
  });
  return seen;
}

test("Stripe.js unreachable: the pay step says card payment could not load, nothing is charged, nothing half-written; the policy is Stripe's, on the pay step only", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { owner, url } = await hostedOnStripe();
  const outside = outsideRequests(page);
  await page.route("https://js.stripe.com/**", (route) => route.abort("internetdisconnected"));

  const details = await page.goto(url);
  const detailsPolicy = details?.headers()["content-security-policy"] ?? "";
  expect(detailsPolicy).toBe("frame-ancestors 'none'");
  await submitDetails(page);
  await choose(page, OPTIONS.sdiUpfront);

  // The pay step, loaded as the renter reloads it: Stripe's markers and exactly Stripe.js's sources.
  const paying = await page.reload();
  expect(policyOf(paying?.headers())).toBe(STRIPE_POLICY);
  const main = step(page, "pay");
  await expect(main).toHaveAttribute("data-processor", "stripe");
  const intentId = (await main.getAttribute("data-payment-intent")) ?? "";
  expect(intentId).toMatch(/^pi_/);
  const amount = stripe.intents.get(intentId)?.object.amount as number;
  const dollars = `$${(amount / 100).toFixed(2)}`;
  await expect(main.getByRole("heading", { name: "Payment" })).toBeVisible();
  await expect(main).toContainText(dollars);

  // What the renter sees: a clear message, no card form, no pay button.
  const alert = main.locator('[data-stripe-load="failed"]');
  await expect(alert).toHaveText("Card payment couldn't load. Nothing was charged. Check your connection and reload this page.");
  await expect(alert).toHaveAttribute("role", "alert");
  await expect(main.getByRole("button", { name: /^Pay / })).toHaveCount(0);
  await expectAccessible(page, "stripe-pay-unreachable");
  expect(outside.every((address) => address.startsWith("https://js.stripe.com/"))).toBe(true);
  expect(outside.length).toBeGreaterThan(0);

  // Nothing charged, nothing written: the intent was never confirmed, no policy, and a reload is still the same payable step.
  expect(stripe.requests.filter((r) => r.path.endsWith("/confirm"))).toEqual([]);
  expect(stripe.intents.get(intentId)?.object).toMatchObject({ status: "requires_payment_method", latest_charge: null });
  expect((admin("policy", "list", "--owner", owner) as { policies: unknown[] }).policies).toEqual([]);
  await page.reload();
  await expect(step(page, "pay")).toHaveAttribute("data-payment-intent", intentId);
  await expect(step(page, "pay").locator('[data-stripe-load="failed"]')).toBeVisible();
});

/**
 * A stand-in for Stripe.js, served at its own address: `Stripe(pk)` with `elements()` whose Payment
 * Element mounts a marked box, `elements.submit()`, and `createConfirmationToken()` answering a token
 * the local Stripe server made for a test card. Anything else react-stripe-js asks for is a no-op.
 */
function stripeJsStandIn(token: string): string {
  return `(() => {
  const noop = () => {};
  const lax = (base) => new Proxy(base, { get: (t, k) => (k in t ? t[k] : k === "then" ? undefined : noop) });
  const element = () => lax({
    mount(node) {
      const target = typeof node === "string" ? document.querySelector(node) : node;
      const box = document.createElement("div");
      box.setAttribute("data-payment-element", "mounted");
      box.textContent = "Card details (Stripe)";
      target.appendChild(box);
    },
    on(event, handler) { if (event === "ready") setTimeout(() => handler({ elementType: "payment" }), 0); return this; },
  });
  const elements = () => lax({ create: element, getElement: () => null, submit: async () => ({}), update: noop, fetchUpdates: async () => ({}) });
  function Stripe(key) {
    window.__stripeKey = key;
    return lax({ elements, createConfirmationToken: async () => ({ confirmationToken: { id: ${JSON.stringify(token)} } }), _registerWrapper: noop, registerAppInfo: noop });
  }
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();`;
}

test("with Stripe.js loaded from js.stripe.com: the Payment Element mounts in the pay step, the token it makes is confirmed by the server, the policy is issued once", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { owner, url } = await hostedOnStripe();
  const token = stripe.confirmationToken("pm_card_visa");
  await page.route("https://js.stripe.com/**", (route) => route.fulfill({ status: 200, contentType: "application/javascript", body: stripeJsStandIn(token) }));
  await page.goto(url);
  await submitDetails(page);
  await choose(page, OPTIONS.sdiUpfront);
  await page.reload();

  const main = step(page, "pay");
  const intentId = (await main.getAttribute("data-payment-intent")) ?? "";
  const dollars = `$${((stripe.intents.get(intentId)?.object.amount as number) / 100).toFixed(2)}`;
  await expect(main.locator('[data-payment-element="mounted"]')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __stripeKey?: string }).__stripeKey)).toBe(stripe.publishableKey);
  const button = main.getByRole("button", { name: `Pay ${dollars}` });
  await expect(button).toBeEnabled();
  await expectAccessible(page, "stripe-pay-element");

  await button.click();
  const done = result(page, "completed");
  await expect(done).toBeVisible({ timeout: 30_000 });
  const confirms = stripe.requests.filter((r) => r.path === `/v1/payment_intents/${intentId}/confirm`);
  expect(confirms).toHaveLength(1);
  expect(confirms[0].params).toMatchObject({ confirmation_token: token });
  expect(stripe.intents.get(intentId)?.object.status).toBe("succeeded");
  const { policies } = admin("policy", "list", "--owner", owner) as { policies: { policy_number: string }[] };
  expect(policies).toHaveLength(1);
  // The result page carries no Stripe policy: Stripe.js's sources are for the pay step only.
  const after = await page.reload();
  expect(after?.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
});

test("the account's Pay now and Update card through Stripe: the Payment Element for the delinquency's intent, settled by the server; Stripe's sources on those pages only", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const sql = connectPostgres(JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "postgres.json"), "utf8")).url, { max: 1, onnotice: () => {} });
  try {
    // A monthly policy bought on the staging server (simulated card), its first month declined there.
    const api = await partnerApi();
    const owner = await createActiveOwner(api);
    const email = `renter.stripe.${unique()}@example.com`;
    const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1", email });
    await page.goto(prospect.hosted);
    const policyNumber = ((await (await enrollToCompletion(page, OPTIONS.sdiMonthly)).getByTestId("policy-number").textContent()) ?? "").trim();
    const { policies } = admin("policy", "list", "--owner", owner) as { policies: { id: number; policy_number: string; coverage_start_date: string }[] };
    const policy = policies.find((row) => row.policy_number === policyNumber);
    if (!policy) throw new Error(`policy ${policyNumber} not listed`);
    admin("billing", "fail-next", "--policy", policyNumber);
    admin("billing", "run", "--as-of", periodStart(policy.coverage_start_date, 1));

    // The renter signs in on the Stripe instance.
    const token = stripe.confirmationToken("pm_card_visa");
    await page.route("https://js.stripe.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "application/javascript", body: stripeJsStandIn(token) }),
    );
    const signIn = await page.goto(`${web.url}/enroll/account`);
    expect(signIn?.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("If an account uses this email");
    const [message] = await sql<{ link: string }[]>`
      select data->>'link' as link from renter_messages where kind = 'account_sign_in' and to_address = ${email} order by id desc limit 1`;
    await page.goto(message.link);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator(`section[data-policy-number="${policyNumber}"]`)).toBeVisible();

    // Pay now: the delinquency's intent, the Payment Element, Stripe's sources on this page.
    const payPage = await page.goto(`${web.url}/enroll/account/policies/${policy.id}/pay`);
    expect(policyOf(payPage?.headers())).toBe(STRIPE_POLICY);
    const main = page.locator('main[data-account-page="pay"]');
    await expect(main).toHaveAttribute("data-processor", "stripe");
    const intentId = (await main.getAttribute("data-payment-intent")) ?? "";
    expect(stripe.intents.get(intentId)?.object.metadata).toMatchObject({
      policy_number: policyNumber,
      delinquency_id: expect.stringMatching(/^delinquency_\d+$/),
    });
    const dollars = `$${((stripe.intents.get(intentId)?.object.amount as number) / 100).toFixed(2)}`;
    await expect(main.locator('[data-payment-element="mounted"]')).toBeVisible();
    await expectAccessible(page, "stripe-account-pay");
    await main.getByRole("button", { name: `Pay ${dollars}` }).click();
    await expect(page.locator('main[data-account-page="policies"]')).toContainText("Payment received.", { timeout: 30_000 });
    expect(stripe.intents.get(intentId)?.object.status).toBe("succeeded");
    const [row] = await sql<{ status: string }[]>`
      select d.status from delinquencies d join policies p on p.id = d.policy_id where p.policy_number = ${policyNumber} order by d.id desc limit 1`;
    expect(row.status).toBe("resolved");
    const policiesPage = await page.reload();
    expect(policiesPage?.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");

    // Update card: this card was kept by the simulated processor, on no Stripe Customer, so no SetupIntent can save one beside it: the page says so in the renter's words.
    await page.goto(`${web.url}/enroll/account/policies/${policy.id}/card`);
    await expect(page.locator('main[data-account-page="card"]').getByRole("alert")).toHaveText(
      "This policy's card can't be replaced online. Your current card stays on the policy: contact us to change it.",
    );
    await expectAccessible(page, "stripe-account-card-refused");
  } finally {
    await sql.end();
  }
});
