import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { connectPostgres } from "../src/server/db/url";
import { completeProspectFields } from "../src/test/samples";
import { screenshots, signInAsOperator } from "./console-helpers";
import { createActiveOwner, partnerApi, unique } from "./enrollment-helpers";

/** An HTTPS receiver trusted by the e2e server, always answering 500. */
async function brokenReceiver() {
  const tls = path.join(E2E_DATA_DIR, "tls");
  const received: string[] = [];
  const server = https.createServer({ key: fs.readFileSync(path.join(tls, "server.key")), cert: fs.readFileSync(path.join(tls, "server.pem")) }, (req, res) => {
    received.push(String(req.headers["x-webhook-delivery"]));
    req.resume();
    req.on("end", () => res.writeHead(500, { "content-type": "text/plain" }).end("receiver is down"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `https://localhost:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const database = () =>
  connectPostgres((JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "postgres.json"), "utf8")) as { url: string }).url, { max: 1, onnotice: () => {} });

test("an endpoint suspended by the health guard shows why in the console, and the operator's reactivation clears it", async ({ page }) => {
  const receiver = await brokenReceiver();
  const api = await partnerApi();
  const sql = database();
  try {
    const owner = await createActiveOwner(api);
    const created = await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: { name: "failing hook", destination_url: receiver.url, events: ["prospect.created"] },
    });
    const endpoint: string = created.endpoint.id;
    await api.post(`/partners/${owner}/prospects`, { prospect: completeProspectFields(api.demo.source, `e2e-${unique()}`, "b1", "u1") });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const deliveryId = receiver.received[0];
    // Days cannot pass in a test: the attempt moves two days back and the endpoint's last change six,
    // then the hourly task is queued now and run by the server's own worker.
    await sql`update webhook_deliveries set last_attempted_at = now() - interval '2 days' where endpoint_id = ${endpoint}`;
    await sql`update webhook_endpoints set updated_at = now() - interval '6 days' where id = ${endpoint}`;
    await sql`select graphile_worker.add_job('webhook_endpoint__suspend_failing', '{}'::json)`;
    await expect.poll(async () => (await sql`select status from webhook_endpoints where id = ${endpoint}`)[0].status, { timeout: 20_000 }).toBe("suspended");

    await signInAsOperator(page);
    await page.goto(`/console/owners/${owner}`);
    const endpoints = page.getByRole("region", { name: "Webhook endpoints" });
    await expect(endpoints).toContainText("suspended");
    await expect(endpoints).toContainText("Suspended automatically: no delivery succeeded for 5 days");

    await page.goto(`/console/deliveries/${deliveryId}`);
    const main = page.getByRole("main");
    await expect(main.getByText("Suspension reason")).toBeVisible();
    await expect(main).toContainText("Suspended automatically: no delivery succeeded for 5 days");
    await screenshots(page, "console-endpoint-suspended");

    await main.getByRole("button", { name: "Activate endpoint" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Set active" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(main.getByText("Suspension reason")).toHaveCount(0);
    await expect(main).not.toContainText("Suspended automatically");
    expect((await sql`select status, suspension_reason from webhook_endpoints where id = ${endpoint}`)[0]).toEqual({
      status: "active",
      suspension_reason: null,
    });
  } finally {
    await sql.end();
    await api.dispose();
    await receiver.close();
  }
});
