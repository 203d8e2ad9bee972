import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { demoCredentials, KEEP_SCREENS } from "./helpers";

/** Signs in as the demo operator and waits for the console's landing page. */
export async function signInAsOperator(page: Page) {
  const demo = demoCredentials();
  await page.goto("/console/signin");
  await page.getByLabel("Email").fill(demo.console_email);
  await page.getByLabel("Password").fill(demo.console_password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/console$/);
}

/** One audit row written on the e2e server's database by the real `recordAudit` (actor `cli:e2e`). */
export function recordAuditRow(record: { action: string; subject: { type: string; id: string | number }; before?: unknown; after?: unknown }) {
  const run = spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "e2e/support/record-audit.ts", JSON.stringify(record)], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
}

/** One renter message (a sign-in link) written on the e2e server's database by the real `queueRenterMessage`. */
export function queueSignInMessage(to: string): number {
  const run = spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "e2e/support/queue-message.ts", to], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { id: number }).id;
}

/** Screenshots at a phone's and a desktop's width, into .data/e2e-screens (looked at by hand; Playwright empties test-results on every run), with E2E_SCREENS=1. */
export async function screenshots(page: Page, name: string) {
  if (!KEEP_SCREENS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
    // Two frames: the page has laid out and painted at the new width before the capture.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: path.join(".data", "e2e-screens", `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
