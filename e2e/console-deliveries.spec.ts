import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { connectPostgres } from "../src/server/db/url";
import { completeProspectFields } from "../src/test/samples";
import { signInAsOperator } from "./console-helpers";
import { createActiveOwner, type Partner, partnerApi, unique } from "./enrollment-helpers";

/** An HTTPS receiver trusted by the e2e server whose answer can be flipped (500 until told otherwise). */
async function flippableReceiver() {
  const tls = path.join(E2E_DATA_DIR, "tls");
  let status = 500;
  const received: { delivery: string; body: string }[] = [];
  const server = https.createServer({ key: fs.readFileSync(path.join(tls, "server.key")), cert: fs.readFileSync(path.join(tls, "server.pem")) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ delivery: String(req.headers["x-webhook-delivery"]), body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer: (next: number) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The e2e server's database, for the one thing no screen can do fast: exhaust 25 attempts. */
function database() {
  const instance = JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "postgres.json"), "utf8")) as { url: string };
  return connectPostgres(instance.url, { max: 1, onnotice: () => {} });
}

/** Two prospects of a new owner, each `prospect.created` delivered once (500) and then marked failed as after attempt 25. */
async function twoFailedDeliveries(api: Partner, receiverUrl: string, received: () => number) {
  const owner = await createActiveOwner(api);
  await api.post(`/partners/${owner}/webhooks/endpoints`, { endpoint: { name: "e2e hook", destination_url: receiverUrl, events: ["prospect.created"] } });
  const ids = [`e2e-${unique()}`, `e2e-${unique()}`];
  for (const id of ids) await api.post(`/partners/${owner}/prospects`, { prospect: completeProspectFields(api.demo.source, id, "b1", "u1") });
  await expect.poll(received, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  const sql = database();
  try {
    await sql`update webhook_deliveries set status = 'failed', attempt_number = 25, next_retry_at = null
      where owner_id = (select id from property_owners where slug = ${owner})`;
  } finally {
    await sql.end();
  }
  return { owner, ids };
}

test("an operator finds a failed delivery, reads its payload and attempts, retries it, then bulk retries the rest after a dry-run count", async ({ page }) => {
  const receiver = await flippableReceiver();
  const api = await partnerApi();
  try {
    const { owner, ids } = await twoFailedDeliveries(api, receiver.url, () => receiver.received.length);
    await signInAsOperator(page);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Deliveries" }).click();
    await expect(page.getByRole("heading", { name: "Deliveries" })).toBeVisible();

    // Find: the filters go into the URL.
    await page.getByLabel("Owner slug").fill(owner);
    await page.getByLabel("Partner prospect id").fill(ids[0]);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`owner=${owner}.*prospect=${ids[0]}|prospect=${ids[0]}.*owner=${owner}`));
    const rows = page.getByRole("region", { name: "Deliveries" }).getByRole("row");
    await expect(rows).toHaveCount(2); // header + one delivery
    await expect(rows.nth(1)).toContainText("failed");
    await expect(rows.nth(1)).toContainText("prospect.created");
    await rows.nth(1).getByRole("link", { name: /^wd_/ }).click();

    // Read: the exact payload, the headers as sent, every attempt.
    await expect(page).toHaveURL(/\/console\/deliveries\/wd_/);
    const deliveryId = page.url().split("/").at(-1) as string;
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: `Delivery ${deliveryId}` })).toBeVisible();
    await expect(main.getByRole("region", { name: "Payload (exact body sent)" })).toContainText(ids[0]);
    await expect(main.getByRole("region", { name: "Headers of the last request" })).toContainText(deliveryId);
    const attempts = main.getByRole("region", { name: "Attempts" }).getByRole("row");
    await expect(attempts.nth(1)).toContainText("500");
    await expect(attempts.nth(1)).toContainText("receiver is down");

    // Retry: it reaches the receiver under the same delivery id.
    receiver.answer(200);
    await main.getByRole("button", { name: "Retry" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Retry now" }).click();
    await expect.poll(() => receiver.received.filter((r) => r.delivery === deliveryId).length, { timeout: 20_000 }).toBe(2);
    await expect
      .poll(
        async () => {
          await page.reload();
          // The detail is fetched after the page loads: wait a moment for it before judging.
          return main
            .getByText("delivered", { exact: true })
            .first()
            .waitFor({ timeout: 3_000 })
            .then(
              () => true,
              () => false,
            );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect(main.getByRole("region", { name: "Attempts" }).getByRole("row")).toHaveCount(3);

    // Bulk retry: the owner's other failed delivery, counted first, then run as a job with progress.
    await page.goto(`/console/deliveries?owner=${owner}`);
    await page.getByRole("button", { name: "Retry failed deliveries…" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByTestId("bulk-matched")).toHaveText("1");
    await dialog.getByLabel(/to confirm/).fill("retry");
    await dialog.getByRole("button", { name: "Retry failed deliveries" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Bulk retry" })).toContainText("done, 1 of 1 re-enqueued", { timeout: 20_000 });
    await expect.poll(() => receiver.received.filter((r) => r.delivery !== deliveryId).length, { timeout: 20_000 }).toBe(2);

    // The audit log has both.
    const sql = database();
    try {
      const actions = await sql<
        { action: string }[]
      >`select action from audit_log where subject_id = ${deliveryId} or (subject_type = 'bulk_retry' and after->'filter'->>'owner' = ${owner})`;
      expect(actions.map((a) => a.action).sort()).toEqual(["deliveries.bulk_retry", "deliveries.retry"]);
    } finally {
      await sql.end();
    }
  } finally {
    await api.dispose();
    await receiver.close();
  }
});
