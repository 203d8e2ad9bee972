import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { E2E_BASE_URL } from "../playwright.config";
import { completeProspectFields } from "../src/test/samples";
import { expectAccessible, WIDTHS } from "./a11y-helpers";
import { signInAsOperator } from "./console-helpers";
import { createActiveOwner, createReadyProspect, enrollToCompletion, OPTIONS, partnerApi, startWebhookReceiver, unique } from "./enrollment-helpers";

// docs/decisions.md "Accessibility: the renter pages under axe-core" (the console and the portal too): the main
// screens, each list and the detail its first row opens, and the partner portal's pages have no
// axe-core violation of impact serious or critical (the sign-in page, the overview and the portal at
// 375 and 1280 px; the other screens at 1280 px). Data of this test's own (an
// owner, a bought policy, its renter messages, a failed delivery) so no screen is checked empty.

test.setTimeout(120_000);
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
// One sign-in for every screen (the console's sign-in is throttled per email, decisions §15).
const SIGNED_IN = path.join(".data", "e2e-a11y-console-session.json");

/** The console's lists, each with the path prefix of the detail its rows link to (if it has one). */
const SCREENS: { path: string; heading: RegExp; detail?: string }[] = [
  { path: "/console", heading: /^Overview$/ },
  { path: "/console/prospects", heading: /^Prospects$/, detail: "/console/prospects/" },
  { path: "/console/policies", heading: /^Policies$/, detail: "/console/policies/" },
  { path: "/console/delinquencies", heading: /^Delinquencies$/ },
  { path: "/console/deliveries", heading: /^Deliveries$/, detail: "/console/deliveries/" },
  { path: "/console/owners", heading: /^Property owners$/, detail: "/console/owners/" },
  { path: "/console/buildings", heading: /^Buildings$/, detail: "/console/buildings/" },
  { path: "/console/messages", heading: /^Messages$/, detail: "/console/messages/" },
  { path: "/console/ingestion", heading: /^Ingested events$/ },
  { path: "/console/audit", heading: /^Audit log$/ },
  { path: "/console/access/clients", heading: /^API clients$/, detail: "/console/access/clients/" },
  { path: "/console/access/users", heading: /^Console users$/ },
  { path: "/console/access/providers", heading: /^Providers$/ },
  { path: "/console/access/sources", heading: /^Sources$/ },
  { path: "/console/access/frame-origins", heading: /^Frame origins$/ },
  { path: "/console/access/building-grants", heading: /^Building grants$/ },
];

async function openFirstDetail(page: Page, prefix: string) {
  const link = page.locator(`main a[href^="${prefix}"]`).first();
  await expect(link, `a row of ${prefix}`).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${prefix.replaceAll("/", "\\/")}[^/?]+`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  const api = await partnerApi();
  receiver = await startWebhookReceiver();
  const page = await browser.newPage();
  try {
    const owner = await createActiveOwner(api);
    await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: { name: "a11y hook", destination_url: receiver.url, events: ["prospect.created", "policy.created"] },
    });
    const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1", email: `renter.console.${unique()}@example.com` });
    await page.goto(prospect.hosted);
    await enrollToCompletion(page, OPTIONS.sdiUpfront);
    const operator = await browser.newContext({ baseURL: E2E_BASE_URL });
    await signInAsOperator(await operator.newPage());
    await operator.storageState({ path: SIGNED_IN });
    await operator.close();
  } finally {
    await Promise.all([api.dispose(), page.close()]);
  }
});

test.afterAll(async () => {
  await receiver?.close();
});

test("the console's sign-in page passes axe-core at both widths", async ({ page }) => {
  await page.goto("/console/signin");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectAccessible(page, "console-signin");
});

test.describe("signed in as an operator", () => {
  test.use({ storageState: SIGNED_IN });
  for (const screen of SCREENS) {
    // The overview at both widths (an operator on call opens it on a phone); the other screens, tables
    // built from the same components, at a desktop's width: a run of the suite stays within CI's time.
    const widths = screen.path === "/console" ? WIDTHS : ([1280] as const);
    test(`console ${screen.path}${screen.detail ? " and the detail of its first row" : ""} pass axe-core at ${widths.length === 2 ? "both widths" : "1280 px"}`, async ({
      page,
    }) => {
      await page.goto(screen.path);
      await expect(page.getByRole("heading", { level: 1, name: screen.heading })).toBeVisible();
      const name = screen.path.replace(/^\//, "").replaceAll("/", "-");
      // A message's page shows the message in a sandboxed frame (no script may run there, axe-core
      // included): its HTML is checked on its own by e2e/accessibility-messages.spec.ts.
      const exclude = screen.path === "/console/messages" ? "iframe[sandbox]" : undefined;
      await expectAccessible(page, name, { widths });
      if (screen.detail) {
        await openFirstDetail(page, screen.detail);
        await expectAccessible(page, `${name}-detail`, { exclude, widths });
      }
    });
  }
});

test("the partner portal's endpoints, an endpoint and a delivery pass axe-core at both widths", async ({ page }) => {
  const api = await partnerApi();
  try {
    const owner = await createActiveOwner(api);
    await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: { name: "Portal a11y hook", destination_url: "https://127.0.0.1:9/unreachable", events: ["prospect.created"] },
    });
    await api.post(`/partners/${owner}/prospects`, { prospect: completeProspectFields(api.demo.source, `e2e-${unique()}`, "b1", "u1") });
    const session = await api.post(`/partners/${owner}/portal_sessions`, {});
    await page.goto(session.url);
    await expect(page.getByRole("heading", { name: "Webhook endpoints" })).toBeVisible();
    await expectAccessible(page, "portal-endpoints");

    await page.getByRole("link", { name: "Portal a11y hook" }).click();
    await expect(page.getByRole("heading", { name: "Portal a11y hook" })).toBeVisible();
    await expectAccessible(page, "portal-endpoint");

    // The delivery appears once the dispatcher has tried it (the destination answers nothing).
    const delivery = page.getByRole("table", { name: "Deliveries" }).getByRole("link", { name: /^wd_/ });
    await expect(async () => {
      await page.reload();
      await expect(delivery.first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await delivery.first().click();
    await expect(page.getByRole("heading", { name: /^Delivery wd_/ })).toBeVisible();
    await expectAccessible(page, "portal-delivery");
  } finally {
    await api.dispose();
  }
});
