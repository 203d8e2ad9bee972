import { expect, type Page, test } from "@playwright/test";
import { KEEP_SCREENS } from "./helpers";

// decisions §13 / docs/decisions.md, Demo page: the service runs on localhost (its PUBLIC_BASE_URL,
// so its enrollment links point there); the demo page is opened on 127.0.0.1, another origin the
// demo seed allowlists, so the frame is cross-origin as on a partner's site.
function otherOrigin(baseURL: string | undefined, path: string): string {
  const url = new URL(path, baseURL);
  url.hostname = "127.0.0.1";
  return url.toString();
}

async function createRenter(page: Page, label: RegExp | string) {
  await page.getByRole("radio", { name: label }).check();
  await page.getByRole("button", { name: "Create prospect" }).click();
  const state = page.getByTestId("prospect-state");
  await expect(state).toContainText("enrollment link ready", { timeout: 30_000 });
  const id = (await state.textContent())?.split(":")[0] ?? "";
  expect(id).toMatch(/^demo-page-/);
  return id;
}

test.describe.configure({ mode: "serial" });

test("creates a renter through the Partner API and frames its enrollment link from another origin", async ({ page, baseURL }) => {
  const framingErrors: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("frame-ancestors")) framingErrors.push(message.text());
  });
  await page.goto(otherOrigin(baseURL, "/demo"));
  await expect(page.getByRole("heading", { level: 1, name: "Embedded enrollment demo" })).toBeVisible();
  await expect(page.getByText(/frames the enrollment host .* another origin/)).toBeVisible();

  const id = await createRenter(page, /Standard renter/);
  // The calls a partner would make, as the gateway answered them.
  const calls = page.getByRole("region", { name: "Partner API calls" });
  // (The token exchange shows only when a token is fetched; the page reuses it until it nears expiry.)
  await expect(calls.locator("li").filter({ hasText: /POST \/api\/partners\/.+\/prospects/ })).toContainText("→ 200");

  const frameElement = page.getByTitle("Embedded enrollment");
  await expect(frameElement).toHaveAttribute("src", new RegExp(`^${new URL(baseURL ?? "").origin}/enroll/embedded/.+/${id}\\?`));
  const frame = page.frameLocator('iframe[title="Embedded enrollment"]');
  // The enrollment page renders inside the frame (not Chromium's refusal page).
  await expect(frame.locator("main")).toBeVisible();
  await expect(frame.locator("h1")).toBeVisible();
  expect(framingErrors).toEqual([]);

  // The demo owner's deliveries, as they happen: prospect.created for this renter, with its payload.
  const deliveries = page.getByRole("region", { name: "Webhook deliveries" });
  const created = deliveries.locator('li[data-event="prospect.created"]').filter({ hasText: id });
  await expect(created).toBeVisible({ timeout: 15_000 });
  await created.locator("summary").click();
  await expect(created.locator("pre")).toContainText(`"id": "${id}"`);
  await expect(created.locator("pre")).toContainText('"event": "prospect.created"');
});

test("logs only the enrollment host's messages from the frame", async ({ page, baseURL }) => {
  await page.goto(otherOrigin(baseURL, "/demo"));
  await createRenter(page, /Declined renter/);
  const log = page.getByRole("region", { name: "Messages from the frame" });
  await expect(log).toContainText(`Accepted from ${new URL(baseURL ?? "").origin} only`);
  // A message from the page's own origin (not the enrollment host) is not logged.
  await page.evaluate(() => window.postMessage("completed", "*"));
  await page.waitForTimeout(300);
  await expect(log.locator("li")).toHaveCount(0);
  // The enrollment frame's own message is (as the result step posts it: decisions §10).
  const frame = page.frames().find((candidate) => candidate.url().includes("/enroll/embedded/"));
  expect(frame).toBeDefined();
  await frame?.evaluate((origin) => window.parent.postMessage("declined", origin), new URL(page.url()).origin);
  await expect(log.locator('li[data-message="declined"]')).toBeVisible();
  await expect(log.locator("li")).toContainText(new URL(baseURL ?? "").origin);
});

test("on the enrollment host's own origin, it offers the other loopback name", async ({ page, baseURL }) => {
  await page.goto("/demo");
  const other = page.getByRole("link", { name: /this demo on http:\/\/127\.0\.0\.1:/ });
  await expect(other).toHaveAttribute("href", otherOrigin(baseURL, "/demo"));
});

test("picks an earlier demo renter again", async ({ page, baseURL }) => {
  await page.goto(otherOrigin(baseURL, "/demo"));
  const id = await createRenter(page, /Guarantee renter/);
  await page.reload();
  const select = page.getByLabel("Or open an earlier demo renter");
  const option = select
    .locator("option")
    .filter({ hasText: /demo\..+@example\.com/ })
    .first();
  await expect(option).toBeAttached();
  await select.selectOption({ value: id });
  await page.getByRole("button", { name: "Open" }).click();
  await expect(page.getByTestId("prospect-state")).toContainText(`${id}: ready — enrollment link ready`);
  await expect(page.getByTitle("Embedded enrollment")).toHaveAttribute("src", new RegExp(`/${id}\\?`));
});

test("reads well at 375 px and 1280 px", async ({ page, baseURL }) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(otherOrigin(baseURL, "/demo"));
    await createRenter(page, /Standard renter/);
    await expect(page.frameLocator('iframe[title="Embedded enrollment"]').locator("h1")).toBeVisible();
    await expect(page.getByRole("region", { name: "Webhook deliveries" }).locator("li").first()).toBeVisible({ timeout: 15_000 });
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (KEEP_SCREENS) await page.screenshot({ path: `test-results/demo-${width}.png`, fullPage: true });
  }
});
